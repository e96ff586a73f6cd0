// The sample summary (model/calibration's SampleSummary: median, p10, p90, extremes, mean) of
// latency samples, with their p99 beside it.
#pragma once

#include <vector>

#include "sample_summary.hpp"

namespace haloflag::bench {

struct LatencySummary : model::calibration::SampleSummary {
  double p99 = 0.0;
};

// Percentiles by linear interpolation between order statistics (as the calibration tools and
// halo_bench compute them). Throws std::invalid_argument for no samples.
LatencySummary summarize_latency(std::vector<double> samples);

}  // namespace haloflag::bench
