#include "transports/nccl/nccl_host_transport.hpp"

#include <optional>
#include <string>
#include <utility>

#include "transports/nccl/nccl_communicator.hpp"
#include "transports/nccl/stream_marks.hpp"

namespace haloflag::halo::detail {
namespace {

using Clock = std::chrono::steady_clock;

// How often a running exchange reads NCCL's error state. An exchange takes tens of
// microseconds, so the usual one never reads it and its completion wait is a stream query
// alone; an error NCCL reports (a network peer that died) ends the exchange within this, and a
// transfer NCCL never reports on (a peer gone over NVLink) ends at the Exchange's deadline.
constexpr auto kErrorCheckInterval = std::chrono::milliseconds(1);

// A traced exchange's marks on the stream: before the pack, between the pack and the group,
// after the group, after the unpack.
enum Mark : int { kBegin, kPacked, kTransferred, kUnpacked, kMarkCount };

// NCCL's transfers have no deadline of their own: a failed exchange aborts the communicator
// (abandon()), which ends NCCL's kernels so the stream drains. The set-up enqueues one group, so
// that NCCL connects to the peers then (within the deadline) and not in the first exchange.
class NcclHostTransport final : public HostTransport {
 public:
  NcclHostTransport(MPI_Comm comm, PeerSpans spans, std::chrono::nanoseconds timeout,
                    ExchangeResources& resources, TimelineRecorder& timeline, void* stream)
      : spans_(std::move(spans)),
        resources_(resources),
        timeline_(timeline),
        stream_(stream),
        communicator_(comm, peers_of(spans_), timeout) {
    communicator_.connect(spans_, resources_.device_send_buffer(),
                          resources_.device_recv_buffer(), stream_);
    if (timeline_.enabled()) marks_.emplace(kMarkCount, stream_);
  }

  std::string_view name() const override { return "nccl"; }
  DeviceWork device_work() const override { return DeviceWork::none; }
  bool carries_send(std::size_t) const override { return true; }
  bool carries_recv(std::size_t) const override { return true; }

  // Before the pack kernel is launched: the group then follows the launch with nothing between.
  void start(std::uint64_t) override {
    enqueued_ = false;
    done_ = false;
    next_error_check_ = Clock::now() + kErrorCheckInterval;
    if (marks_) {
      marks_->clear();
      marks_->record(kBegin);
    }
  }

  std::string pending(std::uint64_t) const override {
    if (done_) return {};
    std::string text;
    if (!enqueued_) {
      text = "\n  NCCL: the group of ncclSend/ncclRecv with " + communicator_.peers_text() +
             " is not enqueued yet";
    }
    text += "\n  NCCL: pack, transfers and unpack on one stream not finished:";
    for (const PeerSpan& span : spans_.sends) text += span_text("ncclSend to", span);
    for (const PeerSpan& span : spans_.recvs) text += span_text("ncclRecv from", span);
    return text + (communicator_.aborted() ? "\n  the NCCL communicator was aborted"
                                           : "\n  the NCCL communicator is aborted on this error");
  }

  void abandon() noexcept override { communicator_.abort(); }

  // While the stream runs, now and then: an error NCCL reports ends the exchange before its
  // deadline.
  bool progress(std::uint64_t) override {
    const auto now = Clock::now();
    if (now >= next_error_check_) {
      communicator_.check_async_error();
      next_error_check_ = now + kErrorCheckInterval;
    }
    return true;
  }

  bool receivers_ready(std::uint64_t) const override { return true; }

  void send_packed(std::uint64_t) override {
    if (marks_) marks_->record(kPacked);
    communicator_.post(spans_, resources_.device_send_buffer(), resources_.device_recv_buffer(),
                       stream_);
    if (marks_) marks_->record(kTransferred);
    enqueued_ = true;
  }

  // Stream-ordered: delivered once the transfers are on the stream, ahead of the unpack kernel.
  bool delivered(std::uint64_t) override { return enqueued_; }

  void stream_work_enqueued(std::uint64_t) override {
    if (marks_) marks_->record(kUnpacked);
  }

  // The stream is idle, so every mark has passed.
  void unpacked(std::uint64_t) override {
    done_ = true;
    if (!marks_) return;
    timeline_.stream_gpu_spans(marks_->elapsed_ns(kBegin, kPacked),
                               marks_->elapsed_ns(kPacked, kTransferred),
                               marks_->elapsed_ns(kTransferred, kUnpacked));
  }

 private:
  static std::string span_text(const char* call, const PeerSpan& span) {
    return "\n    " + std::string(call) + " peer " + std::to_string(span.peer) + ": " +
           std::to_string(span.messages) + " messages, " + std::to_string(span.bytes) + " bytes";
  }

  PeerSpans spans_;
  ExchangeResources& resources_;
  TimelineRecorder& timeline_;
  void* stream_;
  NcclCommunicator communicator_;
  std::optional<StreamMarks> marks_;  // traced Exchanges only
  Clock::time_point next_error_check_{};
  bool enqueued_ = false;  // this exchange's transfers are on the stream
  bool done_ = true;       // the unpack after them finished
};

}  // namespace

std::unique_ptr<HostTransport> make_nccl_host_transport(MPI_Comm comm, PeerSpans spans,
                                                   std::chrono::nanoseconds timeout,
                                                   ExchangeResources& resources,
                                                   TimelineRecorder& timeline, void* stream) {
  return std::make_unique<NcclHostTransport>(comm, std::move(spans), timeout, resources, timeline,
                                             stream);
}

}  // namespace haloflag::halo::detail
