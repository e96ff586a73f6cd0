// Median, percentiles, extremes and mean of per-exchange times.
#pragma once

#include <vector>

namespace haloflag::bench {

struct TimingSummary {
  int count = 0;
  double median = 0.0;
  double p10 = 0.0;
  double p90 = 0.0;
  double min = 0.0;
  double max = 0.0;
  double mean = 0.0;
};

// In the samples' unit. Throws std::invalid_argument for no samples.
TimingSummary summarize_times(const std::vector<double>& samples);

}  // namespace haloflag::bench
