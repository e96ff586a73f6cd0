// The targets this benchmark is judged against (set for an H100): the flag round trip
// CPU -> GPU -> CPU at most 3.5 us median, and at least 2.5 times faster than an empty kernel
// launch + synchronise in the same run. Judged only on a GPU backend: a CPU thread standing in
// for the GPU says nothing about them.
#pragma once

#include <optional>
#include <string>

#include "latency_measurements.hpp"

namespace haloflag::bench {

inline constexpr double kRoundTripMedianTargetUs = 3.5;
inline constexpr double kLaunchOverRoundTripTarget = 2.5;

struct TargetVerdict {
  bool judged = false;
  std::string not_judged_reason;
  double round_trip_median_us = 0.0;
  bool round_trip_met = false;
  std::optional<double> launch_over_round_trip;  // empty kernel launch + sync / round trip
  bool ratio_met = false;
};

TargetVerdict judge_targets(const LatencyResults& results, bool gpu_backend);

}  // namespace haloflag::bench
