// Kernels of the GPU flag tests, behind plain host functions so the GoogleTest side is compiled
// by the host compiler only (clang 15's HIP device pass cannot digest GoogleTest's headers).
#pragma once

#include <cstdint>

#include "haloflag/notify/flag_array_view.hpp"
#include "haloflag/notify/portability.hpp"
#include "haloflag/notify/wait_control.hpp"

namespace haloflag::test {

inline constexpr unsigned kPingPongThreads = 128;  // one payload word per thread

// The payload word `word` of epoch `epoch`; direction 0 = device->host, 1 = host->device.
HF_HD inline std::uint64_t payload_value(std::uint64_t epoch, unsigned word, std::uint64_t direction) {
  return (epoch * 1'000'003u + word * 7919u) ^ (direction << 60);
}

struct PingPongResult {
  unsigned long long mismatches;
  unsigned long long completed_epochs;
};

// Starts (asynchronously) one block of kPingPongThreads threads that, for epochs 1..epochs,
// waits for to_device[0], checks the host's payload in `down`, writes its reply into `up` and
// signals to_host[0]. `result` is device memory.
void launch_pingpong(notify::FlagArrayView to_device, notify::FlagArrayView to_host,
                     const std::uint64_t* down, std::uint64_t* up, std::uint64_t epochs,
                     notify::WaitControl control, PingPongResult* result);

// Starts one thread that waits for flags[index] >= epoch and stores the outcome.
void launch_wait_one(notify::FlagArrayView flags, std::uint32_t index, std::uint64_t epoch,
                     notify::WaitControl control, notify::WaitOutcome* outcome);

}  // namespace haloflag::test
