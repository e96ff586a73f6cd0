// Internal: the GPU runtime calls libnotify needs, implemented by gpu_memory.cu for CUDA/HIP
// builds and by gpu_memory_none.cpp for host-only builds.
#pragma once

#include <cstddef>
#include <string>

namespace haloflag::notify::detail {

// Pinned, host-mapped allocation; returns the host address and sets *device_address.
void* gpu_alloc_mapped(std::size_t bytes, void** device_address);
void gpu_free_mapped(void* host_address) noexcept;
// Number of devices, 0 with the reason in *why when there is none.
int gpu_count(std::string* why);

}  // namespace haloflag::notify::detail
