#include "haloflag/kernels/device_memory.hpp"

#include <cstdlib>
#include <cstring>
#include <new>
#include <string>
#include <utility>

#include "haloflag/kernels/kernel_runner.hpp"
#include "gpu_memory_ops.hpp"

namespace haloflag::kernels {

namespace {
constexpr std::size_t kHostAlignment = 128;
}

DeviceMemory::DeviceMemory(notify::Backend backend, std::size_t bytes)
    : backend_(backend), bytes_(bytes) {
  if (bytes == 0) return;
  if (backend == notify::Backend::host) {
    const std::size_t rounded = (bytes + kHostAlignment - 1) / kHostAlignment * kHostAlignment;
    data_ = std::aligned_alloc(kHostAlignment, rounded);
    if (data_ == nullptr) throw std::bad_alloc();
    std::memset(data_, 0, bytes);
  } else {
    data_ = detail::gpu_allocate(bytes);
  }
}

DeviceMemory::~DeviceMemory() { release(); }

DeviceMemory::DeviceMemory(DeviceMemory&& other) noexcept
    : backend_(other.backend_),
      bytes_(std::exchange(other.bytes_, 0)),
      data_(std::exchange(other.data_, nullptr)) {}

DeviceMemory& DeviceMemory::operator=(DeviceMemory&& other) noexcept {
  if (this != &other) {
    release();
    backend_ = other.backend_;
    bytes_ = std::exchange(other.bytes_, 0);
    data_ = std::exchange(other.data_, nullptr);
  }
  return *this;
}

void DeviceMemory::release() noexcept {
  if (data_ == nullptr) return;
  if (backend_ == notify::Backend::host) {
    std::free(data_);
  } else {
    detail::gpu_free(data_);
  }
  data_ = nullptr;
  bytes_ = 0;
}

void DeviceMemory::check_range(std::size_t bytes, std::size_t offset, const char* what) const {
  if (offset > bytes_ || bytes > bytes_ - offset) {
    throw KernelError(std::string(what) + " of " + std::to_string(bytes) + " bytes at offset " +
                      std::to_string(offset) + " overruns a device allocation of " +
                      std::to_string(bytes_) + " bytes");
  }
}

void DeviceMemory::copy_from_host(const void* source, std::size_t bytes, std::size_t offset) {
  check_range(bytes, offset, "copy to device");
  if (bytes == 0) return;
  void* destination = static_cast<std::byte*>(data_) + offset;
  if (backend_ == notify::Backend::host) {
    std::memcpy(destination, source, bytes);
  } else {
    detail::gpu_copy_to_device(destination, source, bytes);
  }
}

void DeviceMemory::copy_to_host(void* destination, std::size_t bytes, std::size_t offset) const {
  check_range(bytes, offset, "copy from device");
  if (bytes == 0) return;
  const void* source = static_cast<const std::byte*>(data_) + offset;
  if (backend_ == notify::Backend::host) {
    std::memcpy(destination, source, bytes);
  } else {
    detail::gpu_copy_to_host(destination, source, bytes);
  }
}

}  // namespace haloflag::kernels
