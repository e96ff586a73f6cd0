#include "one_way_split.hpp"

#include <cstddef>
#include <limits>
#include <stdexcept>

namespace haloflag::bench {

namespace {

std::int64_t signed_ns(std::uint64_t value) { return static_cast<std::int64_t>(value); }

// device - host offset from the round whose host round trip was shortest.
ClockAlignment align_on_tightest_round(const PingPongStamps& stamps) {
  ClockAlignment best;
  best.method = "device stamp taken as the midpoint of the tightest round trip (assumed symmetric)";
  best.uncertainty_ns = std::numeric_limits<std::int64_t>::max();
  for (std::size_t round = 0; round < stamps.host_sent_ns.size(); ++round) {
    const std::int64_t sent = signed_ns(stamps.host_sent_ns[round]);
    const std::int64_t half_trip = (signed_ns(stamps.host_seen_ns[round]) - sent) / 2;
    if (half_trip >= best.uncertainty_ns) continue;
    best.uncertainty_ns = half_trip;
    best.device_minus_host_ns = signed_ns(stamps.device_seen_ns[round]) - (sent + half_trip);
  }
  return best;
}

}  // namespace

OneWayLatencies split_round_trips(const PingPongStamps& stamps, std::size_t first_timed,
                                  bool same_clock) {
  const std::size_t rounds = stamps.host_sent_ns.size();
  if (stamps.host_seen_ns.size() != rounds || stamps.device_seen_ns.size() != rounds ||
      first_timed >= rounds) {
    throw std::invalid_argument("split_round_trips: stamps of unequal length or no timed round");
  }
  OneWayLatencies result;
  if (same_clock) {
    result.alignment.method = "same clock on both sides (host backend): offset exactly 0";
  } else {
    result.alignment = align_on_tightest_round(stamps);
  }
  const std::int64_t offset = result.alignment.device_minus_host_ns;
  for (std::size_t round = first_timed; round < rounds; ++round) {
    const std::int64_t seen_on_host_clock = signed_ns(stamps.device_seen_ns[round]) - offset;
    result.host_to_device_ns.push_back(
        static_cast<double>(seen_on_host_clock - signed_ns(stamps.host_sent_ns[round])));
    result.device_to_host_ns.push_back(
        static_cast<double>(signed_ns(stamps.host_seen_ns[round]) - seen_on_host_clock));
  }
  return result;
}

}  // namespace haloflag::bench
