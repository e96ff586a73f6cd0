#include "timeline_recorder.hpp"

#include "haloflag/kernels/device_times.hpp"
#include "haloflag/notify/clock.hpp"

namespace haloflag::halo::detail {

TimelineRecorder::TimelineRecorder(const RankMessages& messages, bool enabled) : enabled_(enabled) {
  for (const Message& message : messages.sends) {
    current_.sends.push_back({message.peer, message.tag, message.bytes});
  }
  for (const Message& message : messages.recvs) {
    current_.recvs.push_back({message.peer, message.tag, message.bytes});
  }
}

std::int64_t TimelineRecorder::now() const {
  return static_cast<std::int64_t>(notify::clock_ns()) - current_.start_ns;
}

void TimelineRecorder::begin(std::uint64_t epoch) {
  if (!enabled_) return;
  current_.epoch = epoch;
  current_.start_ns = static_cast<std::int64_t>(notify::clock_ns());
  current_.started = kNotRecorded;
  for (SendTimeline& send : current_.sends) {
    send.pack_begin = send.packed = send.ready_seen = send.posted = kNotRecorded;
  }
  for (RecvTimeline& recv : current_.recvs) {
    recv.received = recv.ready_seen = recv.unpacked = recv.done_seen = kNotRecorded;
  }
  current_.mpi_calls.clear();
  current_.stream = StreamTimeline{};
}

void TimelineRecorder::stream_gpu_spans(std::int64_t pack_ns, std::int64_t transfers_ns,
                                        std::int64_t unpack_ns) {
  if (!enabled_) return;
  current_.stream.gpu_pack_ns = pack_ns;
  current_.stream.gpu_transfers_ns = transfers_ns;
  current_.stream.gpu_unpack_ns = unpack_ns;
}

void TimelineRecorder::messages_at_stream_steps() {
  if (!enabled_) return;
  for (SendTimeline& send : current_.sends) send.posted = current_.stream.transfers_enqueued;
  for (RecvTimeline& recv : current_.recvs) {
    recv.received = current_.stream.done_seen;
    recv.done_seen = current_.stream.done_seen;
  }
}

void TimelineRecorder::mpi_call_end(MpiCall call, std::size_t completed) {
  if (!enabled_) return;
  const std::int64_t end = now();
  if (completed == 0 && end - call_begin_ < kMpiCallTraceFromNs) return;
  current_.mpi_calls.push_back({call, call_begin_, end, static_cast<int>(completed)});
}

void TimelineRecorder::end(const std::uint64_t* device_slots,
                           const notify::DeviceClockOffset& offset) {
  if (!enabled_) return;
  current_.duration_ns = now();
  current_.has_device_times = device_slots != nullptr;
  current_.clock_uncertainty_ns = offset.uncertainty_ns;
  if (device_slots != nullptr) {
    const auto slots = kernels::DeviceTimesView{const_cast<std::uint64_t*>(device_slots),
                                                static_cast<std::uint32_t>(current_.sends.size())};
    const auto relative = [&](const std::uint64_t* slot) {
      return offset.to_host_ns(*slot) - current_.start_ns;
    };
    for (std::uint32_t m = 0; m < current_.sends.size(); ++m) {
      current_.sends[m].pack_begin = relative(slots.send_slot(m, kernels::SendTime::pack_begin));
      current_.sends[m].packed = relative(slots.send_slot(m, kernels::SendTime::packed));
    }
    for (std::uint32_t r = 0; r < current_.recvs.size(); ++r) {
      current_.recvs[r].ready_seen = relative(slots.recv_slot(r, kernels::RecvTime::ready_seen));
      current_.recvs[r].unpacked = relative(slots.recv_slot(r, kernels::RecvTime::unpacked));
    }
  }
  last_ = current_;
}

}  // namespace haloflag::halo::detail
