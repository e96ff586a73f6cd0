// From timed shapes to the table: the samples of every shape of a size, on every rank, pooled
// into one summary per size and work (the paper's Table 3 averages its runs; the table takes
// the mean, the summary keeps median and percentiles beside it).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "haloflag/model/params_file.hpp"
#include "pack_unpack_options.hpp"
#include "sample_summary.hpp"
#include "shape_measurement.hpp"

namespace haloflag::bench {

struct WorkSummary {
  int shapes = 0;
  model::calibration::SampleSummary block_us;
  model::calibration::SampleSummary launch_us;
  // The largest mean of one shape (its runs on every rank): the size's slowest shape.
  double slowest_block_us = 0.0;
  double slowest_launch_us = 0.0;

  double table_us(TableTime time) const {
    return time == TableTime::block ? block_us.mean : launch_us.mean;
  }
  double slowest_us(TableTime time) const {
    return time == TableTime::block ? slowest_block_us : slowest_launch_us;
  }
};

struct SizeRow {
  std::int64_t bytes = 0;
  std::optional<WorkSummary> pack;    // empty: no send of this size was timed
  std::optional<WorkSummary> unpack;  // empty: no receive of this size was timed
};

// One row per size, increasing.
std::vector<SizeRow> pool_by_size(const std::vector<TimedShape>& shapes);

// The smallest non-zero block time of any run: an upper bound on the clock's step. A coarse
// clock (some GPUs' %globaltimer advances in microsecond steps) shows here; means over many runs
// stay unbiased while percentiles are quantised. 0 when every block time was 0.
double finest_block_time_us(const std::vector<TimedShape>& shapes);

struct TableWithNotes {
  model::PackUnpackTable table;   // with each size's slowest shape
  std::vector<std::string> notes;  // sizes left out, times below the clock's resolution
};

// The rows with both a pack and an unpack time (the table needs both; others are left out with
// a note), and their slowest shapes' times. A block time whose every run read 0 (below the
// clock's step) is set to half of `finest_us`, with a note, since table times must be > 0; a
// slowest time is never below the pooled one. Throws std::invalid_argument when no row has both
// times.
TableWithNotes make_table(const std::vector<SizeRow>& rows, TableTime time, double finest_us);

}  // namespace haloflag::bench
