#include "one_message_kernel.hpp"

#include <utility>

#include "haloflag/kernels/device_times.hpp"
#include "haloflag/kernels/standalone_runner.hpp"

namespace haloflag::bench {

namespace {

kernels::DeviceMemory upload_layout(notify::Backend backend, const kernels::MessageLayout& layout) {
  kernels::DeviceMemory memory(backend, sizeof layout);
  memory.copy_from_host(&layout, sizeof layout);
  return memory;
}

}  // namespace

OneMessageKernel::OneMessageKernel(notify::Backend backend, MessageWork work,
                                   const kernels::MessageLayout& layout,
                                   const kernels::FieldSet& fields,
                                   const kernels::LaunchSettings& launch,
                                   std::chrono::nanoseconds timeout, std::string name)
    : work_(work),
      layout_(layout),
      name_(std::move(name)),
      layout_memory_(upload_layout(backend, layout)),
      buffer_(backend, static_cast<std::size_t>(layout.bytes())),
      control_(backend, timeout),
      send_ready_(control_, 1, notify::FlagWriter::device, "send_ready"),
      unpack_ready_(control_, 1, notify::FlagWriter::host, "unpack_ready"),
      unpack_done_(control_, 1, notify::FlagWriter::device, "unpack_done"),
      pack_start_(control_, 1, notify::FlagWriter::host, "pack_start") {
  // The buffer serves both ways; the side without the message stays empty.
  auto* buffer = static_cast<std::byte*>(buffer_.device());
  const kernels::BufferedMessages message{
      static_cast<const kernels::MessageLayout*>(layout_memory_.data()), 1, buffer};
  const kernels::BufferedMessages none{nullptr, 0, buffer};
  const std::uint32_t sends = send_count();
  const std::uint32_t slots = kernels::device_time_slots(sends, 1 - sends);
  stamps_ = notify::MappedAllocation(backend, sizeof(std::uint64_t) * slots);
  kernels::MessageSignals signals;
  signals.send_ready = send_ready_.device_view();
  signals.unpack_ready = unpack_ready_.device_view();
  signals.unpack_done = unpack_done_.device_view();
  signals.pack_start = pack_start_.device_view();
  signals.control = control_.device_control();
  signals.times = {static_cast<std::uint64_t*>(stamps_.device()), sends};
  const bool pack = work == MessageWork::pack;
  runner_ = kernels::make_standalone_runner(backend, pack ? message : none, pack ? none : message,
                                            fields, launch, signals);
}

std::uint64_t* OneMessageKernel::stamp(bool last) const {
  const kernels::DeviceTimesView host_view{static_cast<std::uint64_t*>(stamps_.host()),
                                           send_count()};
  if (work_ == MessageWork::pack) {
    return host_view.send_slot(0, last ? kernels::SendTime::packed : kernels::SendTime::pack_begin);
  }
  return host_view.recv_slot(0, last ? kernels::RecvTime::unpacked : kernels::RecvTime::ready_seen);
}

WorkTimes OneMessageKernel::run() {
  const bool pack = work_ == MessageWork::pack;
  const kernels::KernelOp op = pack ? kernels::KernelOp::notify_pack : kernels::KernelOp::notify_unpack;
  ++epoch_;
  // Zeroed stamps tell a block that did not stamp from one that did; the receive is announced
  // before the launch, so the unpack block's wait succeeds at its first poll and is not timed.
  *stamp(false) = 0;
  *stamp(true) = 0;
  if (!pack) unpack_ready_.signal(0, epoch_);

  const auto start = std::chrono::steady_clock::now();
  runner_->launch(op, epoch_);
  runner_->synchronize(kernels::lane_of(op));
  const auto end = std::chrono::steady_clock::now();

  control_.throw_if_device_failed();
  const notify::FlagArray& done = pack ? send_ready_ : unpack_done_;
  if (!done.test(0, epoch_)) {
    throw kernels::KernelError(name_ + ": the kernel finished without signalling " + done.name() +
                               " for epoch " + std::to_string(epoch_) + " (it holds " +
                               std::to_string(done.value(0)) + ")");
  }
  const std::uint64_t first = *stamp(false);
  const std::uint64_t last = *stamp(true);
  if (first == 0 || last < first) {
    throw kernels::KernelError(name_ + ": the block left no valid clock stamps (first " +
                               std::to_string(first) + ", last " + std::to_string(last) + ")");
  }
  WorkTimes times;
  times.block_seconds = static_cast<double>(last - first) * 1e-9;
  times.launch_seconds = std::chrono::duration<double>(end - start).count();
  return times;
}

}  // namespace haloflag::bench
