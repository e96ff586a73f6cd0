// Host memory that the backend's "device" can read and write directly (zero-copy): pinned and
// mapped for CUDA/HIP, plain aligned memory for the host backend. Zero-filled, 128-byte aligned.
#pragma once

#include <cstddef>

#include "haloflag/notify/backend.hpp"

namespace haloflag::notify {

class MappedAllocation {
 public:
  MappedAllocation() = default;
  MappedAllocation(Backend backend, std::size_t bytes);
  ~MappedAllocation();
  MappedAllocation(MappedAllocation&& other) noexcept;
  MappedAllocation& operator=(MappedAllocation&& other) noexcept;
  MappedAllocation(const MappedAllocation&) = delete;
  MappedAllocation& operator=(const MappedAllocation&) = delete;

  void* host() const { return host_; }      // address for CPU code
  void* device() const { return device_; }  // address for kernels (== host() on the host backend)
  std::size_t bytes() const { return bytes_; }
  Backend backend() const { return backend_; }

 private:
  void release() noexcept;

  Backend backend_ = Backend::host;
  std::size_t bytes_ = 0;
  void* host_ = nullptr;
  void* device_ = nullptr;
};

}  // namespace haloflag::notify
