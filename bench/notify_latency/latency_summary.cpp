#include "latency_summary.hpp"

#include <algorithm>
#include <cstddef>
#include <numeric>
#include <stdexcept>

namespace haloflag::bench {

namespace {

double percentile(const std::vector<double>& sorted, double fraction) {
  const double position = fraction * static_cast<double>(sorted.size() - 1);
  const auto below = static_cast<std::size_t>(position);
  const std::size_t above = std::min(below + 1, sorted.size() - 1);
  const double weight = position - static_cast<double>(below);
  return sorted[below] + weight * (sorted[above] - sorted[below]);
}

}  // namespace

LatencySummary summarize_latency(std::vector<double> samples) {
  if (samples.empty()) throw std::invalid_argument("latency summary of no samples");
  std::sort(samples.begin(), samples.end());
  LatencySummary summary;
  summary.count = static_cast<int>(samples.size());
  summary.median = percentile(samples, 0.5);
  summary.p10 = percentile(samples, 0.1);
  summary.p90 = percentile(samples, 0.9);
  summary.p99 = percentile(samples, 0.99);
  summary.min = samples.front();
  summary.max = samples.back();
  summary.mean =
      std::accumulate(samples.begin(), samples.end(), 0.0) / static_cast<double>(samples.size());
  return summary;
}

}  // namespace haloflag::bench
