// What the tools' GPU sources were compiled for: the backend they run on and the clock that
// their kernels' stamps read (notify::clock_ns). Only for sources of a GPU build
// (haloflag_gpu_sources, which defines HALOFLAG_HAVE_HIP for HIP; CUDA otherwise).
#pragma once

#include "haloflag/notify/backend.hpp"

namespace haloflag::bench {

#if defined(HALOFLAG_HAVE_HIP)
inline constexpr notify::Backend kGpuBackend = notify::Backend::hip;
inline constexpr const char* kGpuClockName = "s_memrealtime (GPU, 100 MHz)";
#else
inline constexpr notify::Backend kGpuBackend = notify::Backend::cuda;
inline constexpr const char* kGpuClockName = "%globaltimer (GPU)";
#endif

}  // namespace haloflag::bench
