// A norm accumulator: one double in device memory (host memory on the host backend) that the
// update's members add their sums of squared changes to. On a GPU each block adds its reduced
// sum once (gpu_jacobi2d.cu); here is what host threads add, and how one thread takes the total.
#pragma once

#include <atomic>

#include "haloflag/notify/portability.hpp"

namespace jacobi2d {

// Adds `value` to *norm (a host thread, or a GPU thread on its own).
HF_HD inline void add_norm(double* norm, double value) {
#if HF_DEVICE_CODE
  atomicAdd(norm, value);
#else
  std::atomic_ref<double>(*norm).fetch_add(value, std::memory_order_relaxed);
#endif
}

// The total, read at the accumulator itself (not through a core's cache), and zero in its place.
HF_HD inline double take_norm(double* norm) {
#if HF_DEVICE_CODE
  return __longlong_as_double(static_cast<long long>(
      atomicExch(reinterpret_cast<unsigned long long*>(norm), 0ull)));
#else
  return std::atomic_ref<double>(*norm).exchange(0.0, std::memory_order_relaxed);
#endif
}

// What the host backend's members use to add their sums.
struct HostNormAdd {
  void operator()(double* norm, double value) const { add_norm(norm, value); }
};

}  // namespace jacobi2d
