#include "halo_set_kernel.hpp"

#include <chrono>
#include <cstring>
#include <stdexcept>
#include <utility>

#include "haloflag/kernels/standalone_runner.hpp"

namespace haloflag::bench {

namespace {

kernels::DeviceMemory upload_layouts(notify::Backend backend,
                                     const std::vector<kernels::MessageLayout>& layouts) {
  if (layouts.empty()) throw std::logic_error("a halo set needs messages");
  const std::size_t bytes = sizeof(kernels::MessageLayout) * layouts.size();
  kernels::DeviceMemory memory(backend, bytes);
  memory.copy_from_host(layouts.data(), bytes);
  return memory;
}

}  // namespace

std::string to_string(BufferPlace place) {
  return place == BufferPlace::pinned ? "pinned" : "device";
}

HaloSetKernel::HaloSetKernel(notify::Backend backend, MessageWork work, BufferPlace place,
                             const std::vector<kernels::MessageLayout>& layouts,
                             std::int64_t buffer_bytes, const kernels::FieldSet& fields,
                             const kernels::LaunchSettings& launch, std::string name)
    : work_(work),
      place_(place),
      buffer_bytes_(static_cast<std::size_t>(buffer_bytes)),
      name_(std::move(name)),
      layout_memory_(upload_layouts(backend, layouts)) {
  if (buffer_bytes < 1) throw std::logic_error(name_ + ": a halo set needs a buffer");
  if (place == BufferPlace::pinned) {
    pinned_buffer_ = notify::MappedAllocation(backend, buffer_bytes_);
  } else {
    device_buffer_ = kernels::DeviceMemory(backend, buffer_bytes_);
  }
  std::byte* buffer = place == BufferPlace::pinned
                          ? static_cast<std::byte*>(pinned_buffer_.device())
                          : static_cast<std::byte*>(device_buffer_.data());
  // The fused kernels read only the layouts, the fields and the buffer (no flags, no waits, so
  // no deadline either): the signals stay empty, and so does the side not moved.
  const kernels::BufferedMessages messages{
      static_cast<const kernels::MessageLayout*>(layout_memory_.data()),
      static_cast<std::uint32_t>(layouts.size()), buffer};
  const bool pack = work == MessageWork::pack;
  runner_ = kernels::make_standalone_runner(backend, pack ? messages : kernels::BufferedMessages{},
                                            pack ? kernels::BufferedMessages{} : messages, fields,
                                            launch);
}

double HaloSetKernel::run() {
  const kernels::KernelOp op = work_ == MessageWork::pack ? kernels::KernelOp::fused_pack
                                                          : kernels::KernelOp::fused_unpack;
  ++epoch_;
  try {
    const auto start = std::chrono::steady_clock::now();
    runner_->launch(op, epoch_);
    runner_->synchronize(kernels::lane_of(op));
    const auto end = std::chrono::steady_clock::now();
    return std::chrono::duration<double>(end - start).count();
  } catch (const kernels::KernelError& error) {
    throw kernels::KernelError(name_ + ": " + error.what());
  }
}

std::vector<std::byte> HaloSetKernel::read_buffer() const {
  std::vector<std::byte> bytes(buffer_bytes_);
  if (place_ == BufferPlace::pinned) {
    std::memcpy(bytes.data(), pinned_buffer_.host(), buffer_bytes_);
  } else {
    device_buffer_.copy_to_host(bytes.data(), buffer_bytes_);
  }
  return bytes;
}

void HaloSetKernel::write_buffer(const std::vector<std::byte>& bytes) {
  if (bytes.size() != buffer_bytes_) {
    throw std::logic_error(name_ + ": write_buffer got " + std::to_string(bytes.size()) +
                           " bytes for a buffer of " + std::to_string(buffer_bytes_));
  }
  if (place_ == BufferPlace::pinned) {
    std::memcpy(pinned_buffer_.host(), bytes.data(), buffer_bytes_);
  } else {
    device_buffer_.copy_from_host(bytes.data(), buffer_bytes_);
  }
}

}  // namespace haloflag::bench
