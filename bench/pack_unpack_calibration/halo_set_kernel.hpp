// A whole halo packed or unpacked in one launch by the engine's fused kernels
// (KernelOp::fused_pack / fused_unpack: every message of the rank, many blocks per message, as
// the bulk strategies launch them), timed by the host's steady clock from launch() to
// synchronize() returning: what a bulk strategy pays for its pack or its unpack.
// The messages lie at their offsets in one buffer, which is either
//  - pinned: pinned mapped host memory, as the MPI path has it (exchange_resources.cpp), or
//  - device: device memory, as the node transport has it (a peer's receive buffer).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "haloflag/kernels/device_memory.hpp"
#include "haloflag/kernels/field_set.hpp"
#include "haloflag/kernels/kernel_runner.hpp"
#include "haloflag/kernels/launch_settings.hpp"
#include "haloflag/kernels/message_layout.hpp"
#include "haloflag/notify/mapped_allocation.hpp"
#include "one_message_kernel.hpp"

namespace haloflag::bench {

enum class BufferPlace { pinned, device };

std::string to_string(BufferPlace place);

class HaloSetKernel {
 public:
  // `layouts` are the sends (pack) or the receives (unpack), with their offsets in a buffer of
  // `buffer_bytes`; `fields` are device memory that must outlive this object; `name` identifies
  // the halo in errors.
  HaloSetKernel(notify::Backend backend, MessageWork work, BufferPlace place,
                const std::vector<kernels::MessageLayout>& layouts, std::int64_t buffer_bytes,
                const kernels::FieldSet& fields, const kernels::LaunchSettings& launch,
                std::string name);
  HaloSetKernel(const HaloSetKernel&) = delete;
  HaloSetKernel& operator=(const HaloSetKernel&) = delete;

  // One launch with the next epoch, waited for; seconds from launch to synchronize returning.
  // Throws KernelError (a fault) naming the halo.
  double run();

  // Copies of the whole buffer to and from the host (a download or an upload for a device
  // buffer): what a pack wrote, what an unpack reads.
  std::vector<std::byte> read_buffer() const;
  void write_buffer(const std::vector<std::byte>& bytes);
  std::size_t buffer_bytes() const { return buffer_bytes_; }
  const std::string& name() const { return name_; }

 private:
  MessageWork work_;
  BufferPlace place_;
  std::size_t buffer_bytes_;
  std::string name_;
  kernels::DeviceMemory layout_memory_;
  notify::MappedAllocation pinned_buffer_;  // place pinned
  kernels::DeviceMemory device_buffer_;     // place device
  std::uint64_t epoch_ = 0;
  std::unique_ptr<kernels::KernelRunner> runner_;  // last: stopped before the memory goes
};

}  // namespace haloflag::bench
