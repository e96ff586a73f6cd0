/// @file
/// Hints to a GPU's caches: a line asked for ahead of the read that needs it, so that a chain of
/// dependent reads can begin while the thread waits on something else. Only CUDA's device code
/// acts on them; elsewhere they do nothing, and what the program computes never depends on them.
#pragma once

#include "haloflag/notify/portability.hpp"

namespace haloflag::notify {

/// Asks the SM's L1 for the line holding `address` (generic; device memory), and does not wait.
HF_HD inline void prefetch_line(const void* address) {
#if HF_DEVICE_CODE && !HF_HIP_DEVICE_CODE
  asm volatile("prefetch.L1 [%0];" ::"l"(address));
#else
  (void)address;
#endif
}

}  // namespace haloflag::notify
