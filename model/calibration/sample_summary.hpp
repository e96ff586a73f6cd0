// Median, percentiles, extremes and mean of repeated measurements (calibration and benchmarks).
// Its own library (haloflag_sample_summary), without MPI, so that one-process tools use it too.
#pragma once

#include <vector>

namespace haloflag::model::calibration {

struct SampleSummary {
  int count = 0;
  double median = 0.0;
  double p10 = 0.0;
  double p90 = 0.0;
  double min = 0.0;
  double max = 0.0;
  double mean = 0.0;
};

// Percentiles by linear interpolation between order statistics (percentile). Throws
// std::invalid_argument for no samples.
SampleSummary summarize(std::vector<double> samples);

// The value a `fraction` (0 to 1) of the way through `sorted` (ascending, not empty), linear
// between the two order statistics around it: for percentiles beyond SampleSummary's.
double percentile(const std::vector<double>& sorted, double fraction);

// Runs timed on every rank at once, run i of each rank after the same barrier: each run's time
// on its slowest rank, which is what ranks that wait on each other get (halo_bench times an
// exchange so). Throws std::invalid_argument for no ranks or ranks of different run counts.
std::vector<double> slowest_rank_per_run(const std::vector<std::vector<double>>& per_rank);

}  // namespace haloflag::model::calibration
