#include "sample_summary.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>

namespace haloflag::model::calibration {

double percentile(const std::vector<double>& sorted, double fraction) {
  const double position = fraction * static_cast<double>(sorted.size() - 1);
  const auto below = static_cast<std::size_t>(position);
  const std::size_t above = std::min(below + 1, sorted.size() - 1);
  const double weight = position - static_cast<double>(below);
  return sorted[below] + weight * (sorted[above] - sorted[below]);
}

SampleSummary summarize(std::vector<double> samples) {
  if (samples.empty()) throw std::invalid_argument("summary of no samples");
  std::sort(samples.begin(), samples.end());
  SampleSummary summary;
  summary.count = static_cast<int>(samples.size());
  summary.median = percentile(samples, 0.5);
  summary.p10 = percentile(samples, 0.1);
  summary.p90 = percentile(samples, 0.9);
  summary.min = samples.front();
  summary.max = samples.back();
  summary.mean = std::accumulate(samples.begin(), samples.end(), 0.0) /
                 static_cast<double>(samples.size());
  return summary;
}

std::vector<double> slowest_rank_per_run(const std::vector<std::vector<double>>& per_rank) {
  if (per_rank.empty()) throw std::invalid_argument("slowest rank per run: no ranks");
  std::vector<double> slowest = per_rank.front();
  for (std::size_t rank = 1; rank < per_rank.size(); ++rank) {
    const std::vector<double>& runs = per_rank[rank];
    if (runs.size() != slowest.size()) {
      throw std::invalid_argument("slowest rank per run: rank " + std::to_string(rank) + " has " +
                                  std::to_string(runs.size()) + " runs, rank 0 has " +
                                  std::to_string(slowest.size()));
    }
    for (std::size_t run = 0; run < runs.size(); ++run) {
      slowest[run] = std::max(slowest[run], runs[run]);
    }
  }
  return slowest;
}

}  // namespace haloflag::model::calibration
