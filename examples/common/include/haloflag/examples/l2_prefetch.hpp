// Asking a GPU's L2 cache for a line ahead of its use. A thread that walks a column waits for
// memory at every step; a prefetch puts a later step's line on its way without a register to
// receive it, so a kernel held to few registers (the resident ones) still keeps several lines in
// flight per thread.
#pragma once

#include "haloflag/notify/portability.hpp"

namespace haloflag::examples {

// A hint only: no value comes back, nothing faults, and host code and HIP (whose compilers
// offer no L2-only prefetch) skip it.
HF_HD HF_FORCEINLINE void prefetch_to_l2(const void* address) {
#if defined(__CUDA_ARCH__)
  asm volatile("prefetch.L2 [%0];" ::"l"(address));  // generic: any pointer
#else
  (void)address;
#endif
}

}  // namespace haloflag::examples
