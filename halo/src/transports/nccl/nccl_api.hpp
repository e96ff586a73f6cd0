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
#else
using NcclStream = cudaStream_t;
#endif

}  // namespace haloflag::halo::detail
