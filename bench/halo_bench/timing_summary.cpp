#include "timing_summary.hpp"

#include <numeric>

#include "sample_summary.hpp"

namespace haloflag::bench {

TimingSummary summarize_times(const std::vector<double>& samples) {
  // Percentiles as the calibration tools compute them, so both report alike.
  const model::calibration::SampleSummary order = model::calibration::summarize(samples);
  TimingSummary summary;
  summary.count = order.count;
  summary.median = order.median;
  summary.p10 = order.p10;
  summary.p90 = order.p90;
  summary.min = order.min;
  summary.max = order.max;
  summary.mean = std::accumulate(samples.begin(), samples.end(), 0.0) /
                 static_cast<double>(samples.size());
  return summary;
}

}  // namespace haloflag::bench
