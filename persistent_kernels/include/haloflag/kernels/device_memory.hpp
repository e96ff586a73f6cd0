/// @file
/// Device memory of a backend: cudaMalloc/hipMalloc on a GPU, 128-byte aligned host memory on the
/// host backend. Owns the allocation. Copies to and from host memory are synchronous: when they
/// return, the data is in place for any kernel, running or not, and for the host.
#pragma once

#include <cstddef>

#include "haloflag/notify/backend.hpp"

namespace haloflag::kernels {

/// An owned allocation of a backend's device memory (host memory on the host backend).
class DeviceMemory {
 public:
  DeviceMemory() = default;
  DeviceMemory(notify::Backend backend, std::size_t bytes);  ///< zero-filled
  ~DeviceMemory();
  /// Takes over `other`'s allocation.
  DeviceMemory(DeviceMemory&& other) noexcept;
  /// Frees this allocation and takes over `other`'s.
  DeviceMemory& operator=(DeviceMemory&& other) noexcept;
  DeviceMemory(const DeviceMemory&) = delete;
  DeviceMemory& operator=(const DeviceMemory&) = delete;

  void* data() const { return data_; }  ///< a device address (a host one on the host backend)
  /// Size in bytes.
  std::size_t bytes() const { return bytes_; }
  /// The backend it was allocated for.
  notify::Backend backend() const { return backend_; }

  /// Copy `bytes` bytes between host memory and this allocation, starting at `offset`.
  void copy_from_host(const void* source, std::size_t bytes, std::size_t offset = 0);
  /// Copies `bytes` bytes from this allocation, starting at `offset`, to host memory.
  void copy_to_host(void* destination, std::size_t bytes, std::size_t offset = 0) const;

 private:
  void check_range(std::size_t bytes, std::size_t offset, const char* what) const;
  void release() noexcept;

  notify::Backend backend_ = notify::Backend::host;
  std::size_t bytes_ = 0;
  void* data_ = nullptr;
};

}  // namespace haloflag::kernels
