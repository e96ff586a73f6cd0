/// @file
/// Host memory that the backend's "device" can read and write directly (zero-copy): pinned and
/// mapped for CUDA/HIP, plain aligned memory for the host backend. Zero-filled, 128-byte aligned.
#pragma once

#include <cstddef>

#include "haloflag/notify/backend.hpp"

namespace haloflag::notify {

/// Memory that the host and the backend's kernels both address (pinned and mapped on GPUs).
class MappedAllocation {
 public:
  MappedAllocation() = default;
  /// Allocates `bytes` for `backend`.
  MappedAllocation(Backend backend, std::size_t bytes);
  ~MappedAllocation();
  /// Takes over `other`'s memory.
  MappedAllocation(MappedAllocation&& other) noexcept;
  /// Frees this memory and takes over `other`'s.
  MappedAllocation& operator=(MappedAllocation&& other) noexcept;
  MappedAllocation(const MappedAllocation&) = delete;
  MappedAllocation& operator=(const MappedAllocation&) = delete;

  void* host() const { return host_; }      ///< address for CPU code
  void* device() const { return device_; }  ///< address for kernels (== host() on the host backend)
  /// Size in bytes.
  std::size_t bytes() const { return bytes_; }
  /// The backend it was allocated for.
  Backend backend() const { return backend_; }

 private:
  void release() noexcept;

  Backend backend_ = Backend::host;
  std::size_t bytes_ = 0;
  void* host_ = nullptr;
  void* device_ = nullptr;
};

}  // namespace haloflag::notify
