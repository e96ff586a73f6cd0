// The block size of the stencil examples' GPU kernels (--gpu-threads): whole warps, at most the
// 1024 threads for which every kernel budgets its registers (__launch_bounds__). Plain C++, so
// that the command line checks the same rule as the GPU side.
#pragma once

#include <stdexcept>
#include <string>

namespace haloflag::examples {

inline constexpr int kMaxGpuThreads = 1024;

// Whether `threads` is a multiple of 32 from 32 to kMaxGpuThreads.
constexpr bool valid_gpu_threads(long threads) {
  return threads >= 32 && threads <= kMaxGpuThreads && threads % 32 == 0;
}

// `threads`, so that a member initializer can check them; throws std::invalid_argument naming
// --gpu-threads when they are not valid.
inline int checked_gpu_threads(int threads) {
  if (!valid_gpu_threads(threads)) {
    throw std::invalid_argument("--gpu-threads must be a multiple of 32 in [32, 1024], got " +
                                std::to_string(threads));
  }
  return threads;
}

}  // namespace haloflag::examples
