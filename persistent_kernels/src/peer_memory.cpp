#include "haloflag/kernels/peer_memory.hpp"

#include <utility>

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

IpcMapping::IpcMapping(const IpcHandle& handle) : data_(detail::gpu_ipc_open(handle.bytes.data())) {}

IpcMapping::~IpcMapping() { release(); }

IpcMapping::IpcMapping(IpcMapping&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)) {}

IpcMapping& IpcMapping::operator=(IpcMapping&& other) noexcept {
  if (this != &other) {
    release();
    data_ = std::exchange(other.data_, nullptr);
  }
  return *this;
}

void IpcMapping::release() noexcept {
  if (data_ != nullptr) detail::gpu_ipc_close(data_);
  data_ = nullptr;
}

HostRegistration::HostRegistration(void* host, std::size_t bytes)
    : host_(static_cast<std::byte*>(host)),
      device_(static_cast<std::byte*>(detail::gpu_host_register(host, bytes))) {}

HostRegistration::~HostRegistration() { release(); }

HostRegistration::HostRegistration(HostRegistration&& other) noexcept
    : host_(std::exchange(other.host_, nullptr)), device_(std::exchange(other.device_, nullptr)) {}

HostRegistration& HostRegistration::operator=(HostRegistration&& other) noexcept {
  if (this != &other) {
    release();
    host_ = std::exchange(other.host_, nullptr);
    device_ = std::exchange(other.device_, nullptr);
  }
  return *this;
}

void* HostRegistration::device_address(const void* host) const {
  return device_ + (static_cast<const std::byte*>(host) - host_);
}

void HostRegistration::release() noexcept {
  if (host_ != nullptr) detail::gpu_host_unregister(host_);
  host_ = nullptr;
  device_ = nullptr;
}

}  // namespace haloflag::kernels
