/// @file
/// Host memory that the backend's "device" can read and write directly (zero-copy): pinned and
/// mapped for CUDA/HIP, plain aligned memory for the host backend. Zero-filled, 128-byte aligned.
#pragma once

#include <cstddef>

#include "haloflag/notify/backend.hpp"
#include "haloflag/notify/unique_resource.hpp"

namespace haloflag::notify {

/// Memory that the host and the backend's kernels both address (pinned and mapped on GPUs).
class MappedAllocation {
 public:
  MappedAllocation() = default;
  /// Allocates `bytes` for `backend`. Movable, not copyable: a move takes the memory over, and
  /// assigning to an allocation frees its memory first.
  MappedAllocation(Backend backend, std::size_t bytes);

  void* host() const { return memory_.get().host; }  ///< address for CPU code
  /// address for kernels (== host() on the host backend)
  void* device() const { return memory_.get().device; }
  /// Size in bytes.
  std::size_t bytes() const { return memory_.get().bytes; }
  /// The backend it was allocated for.
  Backend backend() const { return memory_.get().backend; }

 private:
  struct Memory {
    Backend backend = Backend::host;
    std::size_t bytes = 0;
    void* host = nullptr;
    void* device = nullptr;
    void release() noexcept;
  };
  static Memory allocate(Backend backend, std::size_t bytes);

  UniqueResource<Memory> memory_;
};

}  // namespace haloflag::notify
