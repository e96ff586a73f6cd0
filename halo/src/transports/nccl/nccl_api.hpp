// Internal: the NCCL API, or RCCL's under HIP (the same names and types), and the GPU stream
// type its calls take. Only compiled in builds that found the library.
#pragma once

#if defined(HALOFLAG_HAVE_RCCL)
#include <rccl/rccl.h>
#else
#include <nccl.h>
#endif

namespace haloflag::halo::detail {

#if defined(HALOFLAG_HAVE_RCCL)
using NcclStream = hipStream_t;
inline int current_gpu() {
  int gpu = 0;
  (void)hipGetDevice(&gpu);
  return gpu;
}
inline void use_gpu(int gpu) { (void)hipSetDevice(gpu); }
#else
using NcclStream = cudaStream_t;
// The calling thread's GPU, which NCCL's calls act on: a thread of the communicator's own
// (watched_call.hpp) must be given it first.
inline int current_gpu() {
  int gpu = 0;
  (void)cudaGetDevice(&gpu);
  return gpu;
}
inline void use_gpu(int gpu) { (void)cudaSetDevice(gpu); }
#endif

}  // namespace haloflag::halo::detail
