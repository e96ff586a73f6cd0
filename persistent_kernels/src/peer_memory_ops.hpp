// Internal: the GPU runtime calls behind peer_memory.hpp, implemented by peer_memory_ops.cu in
// GPU builds and by gpu_none.cpp (which throws) in host-only builds.
#pragma once

#include <cstddef>

namespace haloflag::kernels::detail {

void gpu_ipc_export(const void* device_base, std::byte* handle);  // kIpcHandleBytes bytes
const void* gpu_allocation_base(const void* device_pointer);
bool gpu_native_peer_atomics(const char* peer_pci_bus_id);
void* gpu_ipc_open(const std::byte* handle);
void gpu_ipc_close(void* mapped) noexcept;
void* gpu_host_register(void* host, std::size_t bytes);  // returns the device address
void gpu_host_unregister(void* host) noexcept;

}  // namespace haloflag::kernels::detail
