#include "latency_summary.hpp"

#include <algorithm>
#include <stdexcept>

namespace haloflag::bench {

LatencySummary summarize_latency(std::vector<double> samples) {
  if (samples.empty()) throw std::invalid_argument("latency summary of no samples");
  std::sort(samples.begin(), samples.end());
  return {model::calibration::summarize(samples), model::calibration::percentile(samples, 0.99)};
}

}  // namespace haloflag::bench
