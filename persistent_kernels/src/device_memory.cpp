#include "haloflag/kernels/device_memory.hpp"

#include <cstdlib>
#include <cstring>
#include <new>
#include <string>

#include "haloflag/kernels/kernel_runner.hpp"
#include "gpu_memory_ops.hpp"

namespace haloflag::kernels {

namespace {
constexpr std::size_t kHostAlignment = 128;
}

DeviceMemory::DeviceMemory(notify::Backend backend, std::size_t bytes)
    : allocation_(allocate(backend, bytes)) {}

DeviceMemory::Allocation DeviceMemory::allocate(notify::Backend backend, std::size_t bytes) {
  Allocation allocation{backend, bytes};
  if (bytes == 0) return allocation;
  if (backend == notify::Backend::host) {
    const std::size_t rounded = (bytes + kHostAlignment - 1) / kHostAlignment * kHostAlignment;
    allocation.data = std::aligned_alloc(kHostAlignment, rounded);
    if (allocation.data == nullptr) throw std::bad_alloc();
    std::memset(allocation.data, 0, bytes);
  } else {
    allocation.data = detail::gpu_allocate(bytes);
  }
  return allocation;
}

void DeviceMemory::Allocation::release() noexcept {
  if (data == nullptr) return;
  if (backend == notify::Backend::host) {
    std::free(data);
  } else {
    detail::gpu_free(data);
  }
}

void DeviceMemory::check_range(std::size_t bytes, std::size_t offset, const char* what) const {
  const std::size_t size = allocation_.get().bytes;
  if (offset > size || bytes > size - offset) {
    throw KernelError(std::string(what) + " of " + std::to_string(bytes) + " bytes at offset " +
                      std::to_string(offset) + " overruns a device allocation of " +
                      std::to_string(size) + " bytes");
  }
}

void DeviceMemory::copy_from_host(const void* source, std::size_t bytes, std::size_t offset) {
  check_range(bytes, offset, "copy to device");
  if (bytes == 0) return;
  void* destination = static_cast<std::byte*>(data()) + offset;
  if (backend() == notify::Backend::host) {
    std::memcpy(destination, source, bytes);
  } else {
    detail::gpu_copy_to_device(destination, source, bytes);
  }
}

void DeviceMemory::copy_to_host(void* destination, std::size_t bytes, std::size_t offset) const {
  check_range(bytes, offset, "copy from device");
  if (bytes == 0) return;
  const void* source = static_cast<const std::byte*>(data()) + offset;
  if (backend() == notify::Backend::host) {
    std::memcpy(destination, source, bytes);
  } else {
    detail::gpu_copy_to_host(destination, source, bytes);
  }
}

}  // namespace haloflag::kernels
