// Median, percentiles (p10, p90, p99), extremes and mean of latency samples. The calibration
// tools' SampleSummary has no p99 and lives in an MPI-linked library; this program has no MPI.
#pragma once

#include <vector>

namespace haloflag::bench {

struct LatencySummary {
  int count = 0;
  double median = 0.0;
  double p10 = 0.0;
  double p90 = 0.0;
  double p99 = 0.0;
  double min = 0.0;
  double max = 0.0;
  double mean = 0.0;
};

// Percentiles by linear interpolation between order statistics (as the calibration tools and
// halo_bench compute them). Throws std::invalid_argument for no samples.
LatencySummary summarize_latency(std::vector<double> samples);

}  // namespace haloflag::bench
