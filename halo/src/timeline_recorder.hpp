// Internal: fills an ExchangeTimeline while an exchange runs. Every call is a no-op when tracing
// is off, so the strategies call it unconditionally; when on, each costs one clock read.
#pragma once

#include <cstddef>
#include <cstdint>

#include "haloflag/halo/exchange_config.hpp"
#include "haloflag/halo/exchange_timeline.hpp"
#include "haloflag/notify/device_clock_offset.hpp"

namespace haloflag::halo::detail {

class TimelineRecorder {
 public:
  TimelineRecorder(const RankMessages& messages, bool enabled);

  bool enabled() const { return enabled_; }
  void begin(std::uint64_t epoch);
  void started() { stamp(current_.started); }
  void send_ready_seen(std::size_t message) { stamp(current_.sends[message].ready_seen); }
  void send_posted(std::size_t message) { stamp(current_.sends[message].posted); }
  void received(std::size_t message) { stamp(current_.recvs[message].received); }
  void unpack_done_seen(std::size_t message) { stamp(current_.recvs[message].done_seen); }
  // Strategy::nccl's steps on its one stream (StreamTimeline), and the GPU's spans of them.
  void pack_launched() { stamp(current_.stream.pack_launched); }
  void transfers_enqueued() { stamp(current_.stream.transfers_enqueued); }
  void unpack_launched() { stamp(current_.stream.unpack_launched); }
  void stream_done_seen() { stamp(current_.stream.done_seen); }
  void stream_gpu_spans(std::int64_t pack_ns, std::int64_t transfers_ns, std::int64_t unpack_ns);
  // The message rows of a strategy that sees its messages only through its stream's steps:
  // every send posted when the transfers were enqueued, every receive received and seen
  // unpacked when the stream was seen done. No pack's end is seen, so no send_ready.
  void messages_at_stream_steps();
  // A call into MPI: mpi_call_begin() before it, mpi_call_end() after it with what it completed;
  // kept when it took long enough or completed something (ExchangeTimeline::mpi_calls).
  void mpi_call_begin() { stamp(call_begin_); }
  void mpi_call_end(MpiCall call, std::size_t completed);
  // The exchange is done. `device_slots` (kernels::DeviceTimesView layout, host address) holds
  // the device's stamps, or is null for strategies whose kernels do not stamp.
  void end(const std::uint64_t* device_slots, const notify::DeviceClockOffset& offset);

  // The last finished exchange.
  const ExchangeTimeline& last() const { return last_; }

 private:
  void stamp(std::int64_t& slot) {
    if (enabled_) slot = now();
  }
  std::int64_t now() const;

  bool enabled_;
  std::int64_t call_begin_ = 0;
  ExchangeTimeline current_;
  ExchangeTimeline last_;
};

}  // namespace haloflag::halo::detail
