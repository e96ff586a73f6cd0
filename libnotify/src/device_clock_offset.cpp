#include "haloflag/notify/device_clock_offset.hpp"

#include <chrono>
#include <limits>
#include <vector>

#include "clock_probe.hpp"
#include "haloflag/notify/clock.hpp"
#include "haloflag/notify/control_block.hpp"
#include "haloflag/notify/errors.hpp"
#include "haloflag/notify/flag_array.hpp"
#include "haloflag/notify/mapped_allocation.hpp"

namespace haloflag::notify {
namespace {

class HostPingPong final : public detail::ClockProbe {
 public:
  HostPingPong(ControlBlock& control, FlagArray& ping, FlagArray& pong, std::uint32_t rounds)
      : control_(control), ping_(ping), pong_(pong), before_(rounds), after_(rounds) {}

  void run_host_side() override {
    try {
      for (std::uint32_t epoch = 1; epoch <= before_.size(); ++epoch) {
        before_[epoch - 1] = clock_ns();
        ping_.signal(0, epoch);
        pong_.wait(0, epoch);
        after_[epoch - 1] = clock_ns();
      }
    } catch (...) {
      control_.raise_abort();  // lets the kernel leave its wait before the stream is synchronised
      throw;
    }
  }

  std::uint64_t before(std::uint32_t round) const { return before_[round]; }
  std::uint64_t after(std::uint32_t round) const { return after_[round]; }

 private:
  ControlBlock& control_;
  FlagArray& ping_;
  FlagArray& pong_;
  std::vector<std::uint64_t> before_;
  std::vector<std::uint64_t> after_;
};

}  // namespace

DeviceClockOffset measure_device_clock_offset(Backend backend, std::uint32_t rounds) {
  if (backend == Backend::host) return {};
  if (rounds == 0) throw NotifyError(ErrorKind::usage, "measure_device_clock_offset: rounds must be positive");
  ControlBlock control(backend, std::chrono::seconds(2));
  FlagArray ping(control, 1, FlagWriter::host, "clock_ping");
  FlagArray pong(control, 1, FlagWriter::device, "clock_pong");
  MappedAllocation stamps(backend, sizeof(std::uint64_t) * rounds);
  HostPingPong host_side(control, ping, pong, rounds);
  detail::run_clock_probe(ping.device_view(), pong.device_view(),
                          static_cast<std::uint64_t*>(stamps.device()), rounds,
                          control.device_control(), host_side);
  if (auto failure = control.failure(Side::device)) {
    throw NotifyError("device clock probe: " + failure->describe());
  }
  const auto* device_stamps = static_cast<const std::uint64_t*>(stamps.host());
  DeviceClockOffset best{0, std::numeric_limits<std::int64_t>::max()};
  for (std::uint32_t round = 0; round < rounds; ++round) {
    const auto before = static_cast<std::int64_t>(host_side.before(round));
    const auto after = static_cast<std::int64_t>(host_side.after(round));
    const std::int64_t half_trip = (after - before) / 2;
    if (half_trip >= best.uncertainty_ns) continue;
    best.uncertainty_ns = half_trip;
    best.device_minus_host_ns = static_cast<std::int64_t>(device_stamps[round]) - (before + half_trip);
  }
  return best;
}

}  // namespace haloflag::notify
