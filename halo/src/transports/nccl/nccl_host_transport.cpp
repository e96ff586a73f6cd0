#include "transports/nccl/nccl_host_transport.hpp"

#include <string>
#include <utility>

#include "transports/nccl/nccl_communicator.hpp"

namespace haloflag::halo::detail {
namespace {

// NCCL's transfers have no deadline of their own: a failed exchange aborts the communicator
// (abandon()), which ends NCCL's kernels so the stream drains. The set-up enqueues one group, so
// that NCCL connects to the peers then (within the deadline) and not in the first exchange.
class NcclHostTransport final : public HostTransport {
 public:
  NcclHostTransport(MPI_Comm comm, PeerSpans spans, std::chrono::nanoseconds timeout,
                    ExchangeResources& resources, void* stream)
      : spans_(std::move(spans)),
        resources_(resources),
        stream_(stream),
        communicator_(comm, peers_of(spans_), timeout) {
    communicator_.connect(spans_, resources_.device_send_buffer(),
                          resources_.device_recv_buffer(), stream_);
  }

  std::string_view name() const override { return "nccl"; }
  DeviceWork device_work() const override { return DeviceWork::none; }
  bool carries_send(std::size_t) const override { return true; }
  bool carries_recv(std::size_t) const override { return true; }

  void start(std::uint64_t) override {
    enqueued_ = false;
    done_ = false;
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

  // While the stream runs: an error NCCL reports (a peer that died) ends the exchange before
  // its deadline.
  bool progress(std::uint64_t) override {
    (void)communicator_.ready();
    return true;
  }

  bool receivers_ready(std::uint64_t) const override { return true; }

  void send_packed(std::uint64_t) override {
    enqueued_ = communicator_.post(spans_, resources_.device_send_buffer(),
                                   resources_.device_recv_buffer(), stream_);
  }

  // Stream-ordered: delivered once the transfers are on the stream, ahead of the unpack kernel.
  bool delivered(std::uint64_t) override {
    if (!enqueued_) enqueued_ = communicator_.ready();
    return enqueued_;
  }

  void unpacked(std::uint64_t) override { done_ = true; }

 private:
  static std::string span_text(const char* call, const PeerSpan& span) {
    return "\n    " + std::string(call) + " peer " + std::to_string(span.peer) + ": " +
           std::to_string(span.messages) + " messages, " + std::to_string(span.bytes) + " bytes";
  }

  PeerSpans spans_;
  ExchangeResources& resources_;
  void* stream_;
  NcclCommunicator communicator_;
  bool enqueued_ = false;  // this exchange's transfers are on the stream
  bool done_ = true;       // the unpack after them finished
};

}  // namespace

std::unique_ptr<HostTransport> make_nccl_transport(MPI_Comm comm, PeerSpans spans,
                                                   std::chrono::nanoseconds timeout,
                                                   ExchangeResources& resources, void* stream) {
  return std::make_unique<NcclHostTransport>(comm, std::move(spans), timeout, resources, stream);
}

}  // namespace haloflag::halo::detail
