// One-way flag latencies from a time-stamped ping-pong. The host stamps when it signals and when
// it sees the answer (host clock); the device stamps when it sees the host's flag (device clock).
// One-way times need both stamps on one time line:
//   - host backend: the stand-in thread reads the host's own clock, so the offset is exactly 0;
//   - GPU: the offset is taken from the tightest round trip of the run, assuming the device saw
//     the flag half-way through that round (as NTP does). The split between the two directions
//     is then uncertain by up to half that round trip; their sum is exact.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace haloflag::bench {

struct PingPongStamps {
  std::vector<std::uint64_t> host_sent_ns;    // host clock, just before the host's signal
  std::vector<std::uint64_t> host_seen_ns;    // host clock, when the device's answer was seen
  std::vector<std::uint64_t> device_seen_ns;  // device clock, when the host's signal was seen
};

struct ClockAlignment {
  std::string method;
  std::int64_t device_minus_host_ns = 0;
  std::int64_t uncertainty_ns = 0;  // the true offset is within +- this
};

struct OneWayLatencies {
  ClockAlignment alignment;
  std::vector<double> host_to_device_ns;  // one per timed round
  std::vector<double> device_to_host_ns;
};

// Rounds before `first_timed` are warm-up: they may set the offset but give no samples.
// `same_clock`: the device stamps were taken with the host clock (host backend).
OneWayLatencies split_round_trips(const PingPongStamps& stamps, std::size_t first_timed,
                                  bool same_clock);

}  // namespace haloflag::bench
