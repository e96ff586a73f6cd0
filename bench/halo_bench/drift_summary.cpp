#include "drift_summary.hpp"

#include <cstddef>

#include "sample_summary.hpp"

namespace haloflag::bench {

std::optional<DriftSummary> summarize_drift(const std::vector<double>& samples_us, int window) {
  if (window < 1 || samples_us.size() < 2 * static_cast<std::size_t>(window)) return std::nullopt;
  const auto span = static_cast<std::ptrdiff_t>(window);
  DriftSummary drift;
  drift.window = window;
  drift.exchanges = static_cast<int>(samples_us.size());
  drift.first_median_us =
      model::calibration::summarize({samples_us.begin(), samples_us.begin() + span}).median;
  drift.last_median_us =
      model::calibration::summarize({samples_us.end() - span, samples_us.end()}).median;
  drift.last_over_first = drift.last_median_us / drift.first_median_us;
  return drift;
}

}  // namespace haloflag::bench
