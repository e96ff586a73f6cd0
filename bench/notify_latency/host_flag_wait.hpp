// The host's wait for a device-written flag during the round trips: either the library's
// FlagArray::wait (yields the core between polls), or a spin on FlagArray::test with the same
// deadline and the same error, which leaves out the yield's system call.
#pragma once

#include <chrono>
#include <cstdint>

#include "haloflag/notify/flag_array.hpp"
#include "latency_options.hpp"

namespace haloflag::bench {

// Returns once flags[index] >= epoch; throws notify::FlagWaitError after `timeout` (spin) or
// the control block's deadline (yield).
void wait_for_flag(const notify::FlagArray& flags, std::uint32_t index, std::uint64_t epoch,
                   HostWait how, std::chrono::nanoseconds timeout);

}  // namespace haloflag::bench
