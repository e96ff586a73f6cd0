// Internal: the kernel side of measure_device_clock_offset, implemented by clock_probe.cu for
// CUDA/HIP builds and by clock_probe_none.cpp for host-only builds.
#pragma once

#include <cstdint>

#include "haloflag/notify/flag_array_view.hpp"
#include "haloflag/notify/wait_control.hpp"

namespace haloflag::notify::detail {

// Runs a one-thread kernel on a private stream: for epoch 1..rounds it waits for ping >= epoch,
// writes its clock_ns() to stamps[epoch - 1], then signals pong = epoch. `run_host_side` is
// called while the kernel runs; the call returns after the kernel has finished.
class ClockProbe {
 public:
  virtual ~ClockProbe() = default;
  virtual void run_host_side() = 0;
};
void run_clock_probe(FlagArrayView ping, FlagArrayView pong, std::uint64_t* stamps,
                     std::uint32_t rounds, WaitControl control, ClockProbe& host_side);

}  // namespace haloflag::notify::detail
