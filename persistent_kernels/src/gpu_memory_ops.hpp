// Internal: device allocation and copies for DeviceMemory, implemented by gpu_memory_ops.cu in
// GPU builds and by gpu_none.cpp (which throws) in host-only builds.
#pragma once

#include <cstddef>

namespace haloflag::kernels::detail {

void* gpu_allocate(std::size_t bytes);  // zero-filled
void gpu_free(void* pointer) noexcept;
void gpu_copy_to_device(void* destination, const void* source, std::size_t bytes);
void gpu_copy_to_host(void* destination, const void* source, std::size_t bytes);

}  // namespace haloflag::kernels::detail
