// One halo message packed or unpacked by the engine's stream-approach block program
// (KernelOp::notify_pack / notify_unpack: one block per message, as stream_notify launches it),
// launched on its own and timed twice:
//  - block:  from the block's first to its last clock stamp (DeviceTimesView: pack_begin to
//            packed, ready_seen to unpacked): the packing or unpacking itself, on the device's
//            clock (%globaltimer, s_memrealtime) or, on the host backend, the steady clock;
//  - launch: the host's steady clock around launch() and synchronize(): the work plus a kernel
//            launch, its completion and the wait for it.
// The buffer is pinned mapped host memory and the layout lives in device memory, as in an
// Exchange (exchange_resources.cpp), so the block writes and reads what it does in the engine.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "haloflag/kernels/device_memory.hpp"
#include "haloflag/kernels/kernel_runner.hpp"
#include "haloflag/kernels/launch_settings.hpp"
#include "haloflag/kernels/message_layout.hpp"
#include "haloflag/notify/control_block.hpp"
#include "haloflag/notify/flag_array.hpp"
#include "haloflag/notify/mapped_allocation.hpp"

namespace haloflag::bench {

enum class MessageWork { pack, unpack };

struct WorkTimes {
  double block_seconds = 0.0;
  double launch_seconds = 0.0;
};

class OneMessageKernel {
 public:
  // `fields` are device memory that must outlive this object; `name` identifies the message in
  // errors.
  OneMessageKernel(notify::Backend backend, MessageWork work, const kernels::MessageLayout& layout,
                   const kernels::FieldSet& fields, const kernels::LaunchSettings& launch,
                   std::chrono::nanoseconds timeout, std::string name);
  OneMessageKernel(const OneMessageKernel&) = delete;
  OneMessageKernel& operator=(const OneMessageKernel&) = delete;

  // One launch with the next epoch, waited for. Throws KernelError (a fault, a missing signal or
  // stamp) or FlagWaitError (the unpack block's wait failed), naming the message.
  WorkTimes run();

  // Host address of the message's buffer: what a pack wrote, what an unpack reads.
  std::byte* buffer() const { return static_cast<std::byte*>(buffer_.host()); }
  std::size_t buffer_bytes() const { return static_cast<std::size_t>(layout_.bytes()); }
  const std::string& name() const { return name_; }

 private:
  std::uint32_t send_count() const { return work_ == MessageWork::pack ? 1 : 0; }
  std::uint64_t* stamp(bool last) const;  // host address of the first or the last stamp

  MessageWork work_;
  kernels::MessageLayout layout_;
  std::string name_;
  kernels::DeviceMemory layout_memory_;
  notify::MappedAllocation buffer_;
  notify::ControlBlock control_;
  notify::FlagArray send_ready_;
  notify::FlagArray unpack_ready_;
  notify::FlagArray unpack_done_;
  notify::FlagArray pack_start_;
  notify::MappedAllocation stamps_;
  std::uint64_t epoch_ = 0;
  std::unique_ptr<kernels::KernelRunner> runner_;  // last: stopped before the memory goes
};

}  // namespace haloflag::bench
