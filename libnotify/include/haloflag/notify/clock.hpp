/// @file
/// A nanosecond clock readable on either side, used only for relative deadlines (a wait
/// compares the clock with its own start), so device and host clocks need not agree.
#pragma once

#include <cstdint>

#include "haloflag/notify/portability.hpp"

#if !HF_DEVICE_CODE
#include <chrono>
#endif

namespace haloflag::notify {

/// Nanoseconds from a monotonic clock of the calling side (GPU or host).
HF_HD inline std::uint64_t clock_ns() {
#if HF_HIP_DEVICE_CODE
  // s_memrealtime runs at a constant 100 MHz on gfx9 parts (MI100, MI200).
  return __builtin_amdgcn_s_memrealtime() * 10u;
#elif HF_DEVICE_CODE
  std::uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
#else
  return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                        std::chrono::steady_clock::now().time_since_epoch())
                                        .count());
#endif
}

}  // namespace haloflag::notify
