#include "latency_targets.hpp"

namespace haloflag::bench {

TargetVerdict judge_targets(const LatencyResults& results, bool gpu_backend) {
  TargetVerdict verdict;
  if (!gpu_backend) {
    verdict.not_judged_reason = "host backend: the targets are for a GPU";
    return verdict;
  }
  const Measurement& round_trip = results.get("round_trip");
  verdict.judged = true;
  verdict.round_trip_median_us = round_trip.summary_ns->median / 1000.0;
  verdict.round_trip_met = verdict.round_trip_median_us <= kRoundTripMedianTargetUs;
  verdict.launch_over_round_trip =
      median_ratio(results.get("empty_kernel_launch_sync"), round_trip);
  verdict.ratio_met = verdict.launch_over_round_trip &&
                      *verdict.launch_over_round_trip >= kLaunchOverRoundTripTarget;
  return verdict;
}

}  // namespace haloflag::bench
