/// @file
/// The CUDA driver API's entry points, fetched through the runtime
/// (cudaGetDriverEntryPointByVersion, the CUDA 12 signatures) rather than by linking libcuda, so
/// that binaries built with CUDA still start on machines without a driver (CI), where only the
/// host backend runs. CUDA builds only; HIP has these calls in its runtime.
#pragma once

namespace haloflag::notify {

/// The function `symbol` (e.g. "cuStreamWriteValue64"); throws NotifyError when the driver lacks
/// it. Cast the result to the function's own type.
void* cuda_driver_entry_point(const char* symbol);

}  // namespace haloflag::notify
