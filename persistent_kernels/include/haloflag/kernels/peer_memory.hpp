/// @file
/// Memory that two processes of one node both reach from their GPUs: a device allocation shared
/// through an IPC handle (cudaIpc*/hipIpc*), or host memory both map, registered as pinned so
/// that kernels read and write it over the bus. The node transport's two data paths
/// (docs/design.md, "Node transport memory").
#pragma once

#include <array>
#include <cstddef>
#include <string>

#include "haloflag/notify/unique_resource.hpp"

namespace haloflag::kernels {

inline constexpr std::size_t kIpcHandleBytes = 64;  ///< Size of an IPC handle.

/// An opaque handle to a device allocation, to be sent to another process of the node.
struct IpcHandle {
  /// the runtime's handle
  std::array<std::byte, kIpcHandleBytes> bytes{};
};

/// The handle of the allocation starting at `device_base` (DeviceMemory::data() of a GPU
/// backend). Throws KernelError naming the runtime's reason.
IpcHandle export_ipc_handle(const void* device_base);

/// The start of the device allocation holding `device_pointer` (IPC shares whole allocations).
/// Throws KernelError when it is not device memory of this process's GPU.
const void* allocation_base(const void* device_pointer);

/// Whether this process's GPU has native atomics on the memory of the GPU with PCI bus id
/// `peer_pci_bus_id` (NVLink: yes; PCIe peer-to-peer: often not). False when that GPU is not
/// visible to this process, or on a build without a GPU backend.
bool native_peer_atomics(const std::string& peer_pci_bus_id);

/// Another process's allocation mapped into this one (peer access enabled as needed); closed on
/// destruction, before the owner may free it.
class IpcMapping {
 public:
  IpcMapping() = default;
  /// Throws KernelError naming the runtime's reason (no peer access, IPC refused). Movable, not
  /// copyable: a move takes the mapping over, and assigning to a mapping closes it first.
  explicit IpcMapping(const IpcHandle& handle);

  void* data() const { return mapping_.get().data; }  ///< a device address in this process

 private:
  struct Mapping {
    void* data = nullptr;
    void release() noexcept;
  };
  notify::UniqueResource<Mapping> mapping_;
};

/// Host memory this process did not allocate (a shared-memory window) registered as pinned and
/// mapped, so kernels reach it directly; unregistered on destruction.
class HostRegistration {
 public:
  HostRegistration() = default;
  /// Throws KernelError naming the runtime's reason. Movable, not copyable: a move takes the
  /// registration over, and assigning to a registration unregisters its memory first.
  HostRegistration(void* host, std::size_t bytes);

  /// The device address of host address `host` inside the registered range.
  void* device_address(const void* host) const;

 private:
  struct Registration {
    std::byte* host = nullptr;
    std::byte* device = nullptr;
    void release() noexcept;
  };
  notify::UniqueResource<Registration> registration_;
};

}  // namespace haloflag::kernels
