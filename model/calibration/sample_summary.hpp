// Median, percentiles, extremes and mean of repeated measurements (calibration and benchmarks).
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

// Percentiles by linear interpolation between order statistics. Throws std::invalid_argument
// for no samples.
SampleSummary summarize(std::vector<double> samples);

}  // namespace haloflag::model::calibration
