#include "haloflag/kernels/peer_memory.hpp"

#include "peer_memory_ops.hpp"

namespace haloflag::kernels {

IpcHandle export_ipc_handle(const void* device_base) {
  IpcHandle handle;
  detail::gpu_ipc_export(device_base, handle.bytes.data());
  return handle;
}

const void* allocation_base(const void* device_pointer) {
  return detail::gpu_allocation_base(device_pointer);
}

bool native_peer_atomics(const std::string& peer_pci_bus_id) {
  return detail::gpu_native_peer_atomics(peer_pci_bus_id.c_str());
}

IpcMapping::IpcMapping(const IpcHandle& handle)
    : mapping_(Mapping{detail::gpu_ipc_open(handle.bytes.data())}) {}

void IpcMapping::Mapping::release() noexcept {
  if (data != nullptr) detail::gpu_ipc_close(data);
}

HostRegistration::HostRegistration(void* host, std::size_t bytes)
    : registration_(Registration{
          static_cast<std::byte*>(host),
          static_cast<std::byte*>(detail::gpu_host_register(host, bytes))}) {}

void* HostRegistration::device_address(const void* host) const {
  const Registration& registered = registration_.get();
  return registered.device + (static_cast<const std::byte*>(host) - registered.host);
}

void HostRegistration::Registration::release() noexcept {
  if (host != nullptr) detail::gpu_host_unregister(host);
}

}  // namespace haloflag::kernels
