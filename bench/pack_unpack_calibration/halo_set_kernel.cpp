#include "halo_set_kernel.hpp"

#include <chrono>
#include <cstring>
#include <stdexcept>
#include <utility>

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
  // no deadline either): the rest of the plan stays empty.
  const bool pack = work == MessageWork::pack;
  const auto* device_layouts = static_cast<const kernels::MessageLayout*>(layout_memory_.data());
  const auto count = static_cast<std::uint32_t>(layouts.size());
  plan_.sends = pack ? device_layouts : nullptr;
  plan_.recvs = pack ? nullptr : device_layouts;
  plan_.send_count = pack ? count : 0;
  plan_.recv_count = pack ? 0 : count;
  plan_.fields = fields;
  plan_.send_buffer = pack ? buffer : nullptr;
  plan_.recv_buffer = pack ? nullptr : buffer;
  runner_ = kernels::make_kernel_runner(backend, plan_, launch);
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
