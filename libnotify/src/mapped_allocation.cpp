#include "haloflag/notify/mapped_allocation.hpp"

#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>

#include "gpu_memory.hpp"
#include "haloflag/notify/errors.hpp"
#include "haloflag/notify/flag_line.hpp"

namespace haloflag::notify {

MappedAllocation::MappedAllocation(Backend backend, std::size_t bytes) : backend_(backend) {
  if (bytes == 0) return;
  if (!backend_compiled(backend)) {
    throw NotifyError("cannot allocate mapped memory for backend '" + std::string(to_string(backend)) +
                      "': not compiled into this build");
  }
  // Whole lines, so the last flag never shares its line with a neighbouring allocation.
  bytes_ = (bytes + kFlagLineBytes - 1) / kFlagLineBytes * kFlagLineBytes;
  if (backend == Backend::host) {
    host_ = std::aligned_alloc(kFlagLineBytes, bytes_);
    if (host_ == nullptr) {
      throw NotifyError("aligned_alloc of " + std::to_string(bytes_) + " bytes failed");
    }
    device_ = host_;
  } else {
    host_ = detail::gpu_alloc_mapped(bytes_, &device_);
  }
  std::memset(host_, 0, bytes_);
}

MappedAllocation::~MappedAllocation() { release(); }

MappedAllocation::MappedAllocation(MappedAllocation&& other) noexcept
    : backend_(other.backend_),
      bytes_(std::exchange(other.bytes_, 0)),
      host_(std::exchange(other.host_, nullptr)),
      device_(std::exchange(other.device_, nullptr)) {}

MappedAllocation& MappedAllocation::operator=(MappedAllocation&& other) noexcept {
  if (this != &other) {
    release();
    backend_ = other.backend_;
    bytes_ = std::exchange(other.bytes_, 0);
    host_ = std::exchange(other.host_, nullptr);
    device_ = std::exchange(other.device_, nullptr);
  }
  return *this;
}

void MappedAllocation::release() noexcept {
  if (host_ == nullptr) return;
  if (backend_ == Backend::host) {
    std::free(host_);
  } else {
    detail::gpu_free_mapped(host_);
  }
  host_ = device_ = nullptr;
  bytes_ = 0;
}

}  // namespace haloflag::notify
