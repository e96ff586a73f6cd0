#include "host_flag_wait.hpp"

#include <utility>

#include "haloflag/notify/clock.hpp"
#include "haloflag/notify/errors.hpp"

namespace haloflag::bench {

namespace {

// Polls between two reads of the clock: a clock read costs about as much as several polls.
constexpr std::uint32_t kPollsPerClockCheck = 64;

void spin_until(const notify::FlagArray& flags, std::uint32_t index, std::uint64_t epoch,
                std::chrono::nanoseconds timeout) {
  if (flags.test(index, epoch)) return;
  const std::uint64_t start = notify::clock_ns();
  const auto timeout_ns = static_cast<std::uint64_t>(timeout.count());
  for (std::uint32_t polls = 1;; ++polls) {
    if (flags.test(index, epoch)) return;
    if (polls % kPollsPerClockCheck != 0) continue;
    const std::uint64_t waited = notify::clock_ns() - start;
    if (waited < timeout_ns) continue;
    notify::WaitFailure failure;
    failure.side = notify::Side::host;
    failure.outcome = notify::WaitOutcome::timed_out;
    failure.array_name = flags.name();
    failure.index = index;
    failure.expected_epoch = epoch;
    failure.last_seen = flags.value(index);
    failure.waited_ns = waited;
    throw notify::FlagWaitError(std::move(failure));
  }
}

}  // namespace

void wait_for_flag(const notify::FlagArray& flags, std::uint32_t index, std::uint64_t epoch,
                   HostWait how, std::chrono::nanoseconds timeout) {
  if (how == HostWait::yield) {
    flags.wait(index, epoch);
  } else {
    spin_until(flags, index, epoch, timeout);
  }
}

}  // namespace haloflag::bench
