// What haloflag_calibrate_pack_unpack writes: the human tables, the pack/unpack table file the
// model reads (model/params_file.hpp; it rejects unknown keys, so the raw measurements go to a
// file of their own beside it), and that raw file.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "copy_rates.hpp"
#include "halo_set_measurement.hpp"
#include "haloflag/model/params_file.hpp"
#include "haloflag/notify/backend.hpp"
#include "pack_unpack_options.hpp"
#include "run_info.hpp"
#include "shape_measurement.hpp"
#include "size_table.hpp"

namespace haloflag::bench {

inline constexpr const char* kRawFormat = "haloflag-calibration-pack-unpack";
// Version 2: each halo set's slowest_rank_median_us, where version 1 had the median of every
// rank's runs pooled (median_us). Both keep every rank's runs.
inline constexpr int kRawFormatVersion = 2;

// How a halo set's time is taken and fitted, as the table's provenance says it.
inline constexpr const char* kHaloSetFitMethod =
    "time = launch to synchronize on the host's steady clock, the median over the runs of each "
    "run's slowest rank (the ranks of an exchange wait for it); fit T(B) = latency_s + B / "
    "(bytes_per_s / ranks per GPU) over one rank's halo bytes B, so bytes_per_s is the GPU's "
    "throughput its ranks shared";

struct CalibrationRun {
  model::calibration::RunInfo run;  // tool, date, MPI library, ranks, hosts
  std::vector<std::string> command_line;
  PackUnpackOptions options;
  notify::Backend backend = notify::Backend::host;
  std::string backend_reason;       // e.g. "auto: best present"
  std::vector<std::string> gpus;    // binding of each rank; empty on the host backend
  std::vector<std::string> gpu_names;
  int gpu_sharers = 1;  // ranks bound to one GPU (the most of any GPU); 1 on the host backend
  std::vector<std::string> sources;  // ShapeSource names, in order
};

// The words with `separator` between them (a command line, a list of sources).
std::string joined(const std::vector<std::string>& words, const std::string& separator);

void print_size_table(std::FILE* out, const std::vector<SizeRow>& rows, TableTime time);

// The slowest-rank median of every halo set, one row per cube, and the fits.
void print_halo_sets(std::FILE* out, const std::vector<TimedHaloSet>& sets,
                     const std::vector<FusedFit>& fits);

// The fits as the table file holds them.
model::FusedKernelTimes fused_kernel_times(const std::vector<FusedFit>& fits);

// A note for each fit that was clamped.
void add_clamp_notes(const std::vector<FusedFit>& fits, model::Provenance& provenance);

// The table and its provenance, with a note on the halo sets and on any clamped fit.
model::PackUnpackTableFile make_table_file(const CalibrationRun& run, const TableWithNotes& table,
                                           double finest_block_us,
                                           const std::vector<FusedFit>& fits);

// `table_text`: the table file as written, copied into the raw file; `copies`: the rates the
// fused kernels' stand beside (rates_report.hpp).
std::string raw_json(const CalibrationRun& run, const std::vector<TimedShape>& shapes,
                     const std::vector<SizeRow>& rows, const std::string& table_text,
                     double finest_block_us, const std::vector<TimedHaloSet>& sets,
                     const std::vector<FusedFit>& fits, const CopyRates& copies);

}  // namespace haloflag::bench
