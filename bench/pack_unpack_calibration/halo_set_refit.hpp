// A calibration's halo sets fitted again from its raw file, measuring nothing: for a file made
// before the fit changed (the raw file keeps every rank's runs), so that its parameter file can
// be remade without a GPU.
#pragma once

#include <string>
#include <vector>

#include "halo_set_measurement.hpp"
#include "haloflag/model/params_file.hpp"

namespace haloflag::bench {

struct RefitTable {
  std::vector<TimedHaloSet> sets;      // as the raw file has them, every rank's runs
  std::vector<FusedFit> fits;          // fit_halo_sets over them
  model::PackUnpackTableFile table;    // the raw file's table, its fused section from `fits`
};

// Reads the raw file that haloflag_calibrate_pack_unpack wrote (format 1 or 2) and fits its halo
// sets again. The table keeps its sizes and its provenance, less the old note on the fused fits,
// which gives way to one naming the refit (`command`). Throws std::invalid_argument naming the
// file and the field for a file that is no such raw file, has no halo sets, or whose halo sets
// were timed one rank at a time (their runs are not the same runs, so no run has a slowest
// rank: such files have no ranks_per_gpu in their fits).
RefitTable refit_halo_sets(const std::string& raw_path, const std::string& command);

}  // namespace haloflag::bench
