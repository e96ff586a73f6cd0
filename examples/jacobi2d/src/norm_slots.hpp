// Where kernels publish each norm check's partial sum for the host: one word per check and a
// count of checks published, in memory both sides address (MappedAllocation). The value goes
// first, then the count with a system-scope release; the host acquires the count before it
// reads the value.
#pragma once

#include <cstdint>

#include "haloflag/notify/portability.hpp"
#include "haloflag/notify/system_atomics.hpp"

namespace jacobi2d {

struct NormSlots {
  std::uint64_t* values;     // check k's partial sum, as the bits of a double
  std::uint64_t* published;  // checks published so far in this run
};

// Check `check`'s partial sum `value` is published (one thread calls it).
HF_HD inline void publish_norm(const NormSlots& slots, std::uint64_t check, double value) {
  // __builtin_memcpy, which the device compilers of CUDA and HIP both take (std::memcpy is a host
  // function to HIP's).
  std::uint64_t bits = 0;
  __builtin_memcpy(&bits, &value, sizeof bits);
  haloflag::notify::store_relaxed_system(&slots.values[check], bits);
  haloflag::notify::store_release_system(slots.published, check + 1);
}

}  // namespace jacobi2d
