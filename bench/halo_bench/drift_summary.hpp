// Drift of the time per exchange over a long run: the median of the first `window` timed
// exchanges beside the median of the last `window`. A soak that slows down (a leak, a queue
// that grows, a clock that throttles) shows a ratio above 1.
#pragma once

#include <optional>
#include <vector>

namespace haloflag::bench {

struct DriftSummary {
  int window = 0;            // exchanges in each of the two windows
  int exchanges = 0;         // timed exchanges the windows were taken from
  double first_median_us = 0;
  double last_median_us = 0;
  double last_over_first = 0;  // > 1: the last exchanges were slower
};

// Empty unless there are at least 2 * window samples (the two windows never overlap).
std::optional<DriftSummary> summarize_drift(const std::vector<double>& samples_us, int window);

}  // namespace haloflag::bench
