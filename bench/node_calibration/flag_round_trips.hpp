// The latency of one flag as the node transport uses it, timed on the current GPU: two blocks of
// one kernel pass an epoch back and forth through two flags in device memory, each a
// system-scope release store that the other block's acquire polls wait for.
#pragma once

#include <chrono>
#include <cstdint>
#include <vector>

namespace haloflag::bench {

struct FlagTimingPlan {
  int samples = 200;
  int warmup_samples = 10;          // run first, not returned
  int round_trips_per_sample = 100;
  std::uint32_t poll_backoff_ns = 0;  // pause between two polls of a waiting block
  std::chrono::nanoseconds timeout = std::chrono::seconds(10);  // deadline of every wait
};

// One-way times in seconds, one per sample: the device clock's time of round_trips_per_sample
// round trips divided by twice that count. Throws notify::FlagWaitError when a wait ran past its
// deadline (the other block never ran, or lost an epoch).
std::vector<double> time_flag_round_trips(const FlagTimingPlan& plan);

}  // namespace haloflag::bench
