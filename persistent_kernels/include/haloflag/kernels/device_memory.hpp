/// @file
/// Device memory of a backend: cudaMalloc/hipMalloc on a GPU, 128-byte aligned host memory on the
/// host backend. Owns the allocation. Copies to and from host memory are synchronous: when they
/// return, the data is in place for any kernel, running or not, and for the host.
#pragma once

#include <cstddef>

#include "haloflag/notify/backend.hpp"
#include "haloflag/notify/unique_resource.hpp"

namespace haloflag::kernels {

/// An owned allocation of a backend's device memory (host memory on the host backend).
class DeviceMemory {
 public:
  DeviceMemory() = default;
  /// Zero-filled. Movable, not copyable: a move takes the allocation over, and assigning to an
  /// allocation frees it first.
  DeviceMemory(notify::Backend backend, std::size_t bytes);

  /// a device address (a host one on the host backend)
  void* data() const { return allocation_.get().data; }
  /// Size in bytes.
  std::size_t bytes() const { return allocation_.get().bytes; }
  /// The backend it was allocated for.
  notify::Backend backend() const { return allocation_.get().backend; }

  /// Copy `bytes` bytes between host memory and this allocation, starting at `offset`.
  void copy_from_host(const void* source, std::size_t bytes, std::size_t offset = 0);
  /// Copies `bytes` bytes from this allocation, starting at `offset`, to host memory.
  void copy_to_host(void* destination, std::size_t bytes, std::size_t offset = 0) const;

 private:
  struct Allocation {
    notify::Backend backend = notify::Backend::host;
    std::size_t bytes = 0;
    void* data = nullptr;
    void release() noexcept;
  };
  static Allocation allocate(notify::Backend backend, std::size_t bytes);
  void check_range(std::size_t bytes, std::size_t offset, const char* what) const;

  notify::UniqueResource<Allocation> allocation_;
};

}  // namespace haloflag::kernels
