// nccl: the baseline a user without CUDA-aware MPI picks on a multi-GPU node. Comb's fused pack
// kernel writes each peer's messages back to back into that peer's span of one device buffer,
// one NCCL group posts a ncclSend and a ncclRecv per peer, the fused unpack kernel follows, all
// on the pack lane's stream, so the only host synchronisation is the wait for that stream
// (lane_idle, polled, so progress() never blocks). NCCL's transfers have no deadline of their
// own: a failed exchange aborts the communicator (abandon(), shut_down()), which ends NCCL's
// kernels so the stream drains.
#include <string>
#include <utility>

#include "strategies/exchange_strategy.hpp"
#include "transports/nccl/nccl_communicator.hpp"

namespace haloflag::halo::detail {
namespace {

using kernels::KernelOp;
using kernels::Lane;

class NcclStrategy final : public ExchangeStrategy {
 public:
  NcclStrategy(StrategyContext context, MPI_Comm comm, PeerSpans spans,
               std::chrono::nanoseconds timeout)
      : context_(context),
        spans_(std::move(spans)),
        stream_(context.runner.gpu_stream(Lane::pack)),
        communicator_(comm, peers_of(spans_), timeout) {}

  void start(std::uint64_t, PackStart) override {
    context_.runner.launch(KernelOp::fused_pack, 0);
    phase_ = Phase::enqueuing;
    const ExchangeResources& resources = context_.resources;
    if (communicator_.post(spans_, resources.device_send_buffer(), resources.device_recv_buffer(),
                           stream_)) {
      launch_unpack();
    }
  }

  bool progress() override {
    if (phase_ == Phase::enqueuing) {
      if (!communicator_.ready()) return false;
      launch_unpack();
    }
    if (phase_ == Phase::transferring) {
      // An error NCCL reports (a peer that died) ends the exchange before its deadline.
      (void)communicator_.ready();
      if (!context_.runner.lane_idle(Lane::pack)) return false;
      // The stream ran pack, transfers and unpack in one go: every event is seen at its end.
      for (std::size_t m = 0; m < context_.requests.send_count(); ++m) {
        context_.timeline.send_ready_seen(m);
        context_.timeline.send_posted(m);
      }
      for (std::size_t r = 0; r < context_.requests.recv_count(); ++r) {
        context_.timeline.received(r);
        context_.timeline.unpack_done_seen(r);
      }
      phase_ = Phase::done;
    }
    return phase_ == Phase::done;
  }

  std::string pending() const override {
    if (phase_ == Phase::done) return {};
    std::string text;
    if (phase_ == Phase::enqueuing) {
      text = "\n  NCCL: the group of ncclSend/ncclRecv with " + communicator_.peers_text() +
             " is not enqueued yet (NCCL connects to a peer on the first exchange with it)";
    }
    text += "\n  NCCL: pack, transfers and unpack on one stream not finished:";
    for (const PeerSpan& span : spans_.sends) {
      text += "\n    ncclSend to peer " + std::to_string(span.peer) + ": " +
              std::to_string(span.messages) + " messages, " + std::to_string(span.bytes) +
              " bytes";
    }
    for (const PeerSpan& span : spans_.recvs) {
      text += "\n    ncclRecv from peer " + std::to_string(span.peer) + ": " +
              std::to_string(span.messages) + " messages, " + std::to_string(span.bytes) +
              " bytes";
    }
    return text + (communicator_.aborted() ? "\n  the NCCL communicator was aborted"
                                           : "\n  the NCCL communicator is aborted on this error");
  }

  void abandon() noexcept override { communicator_.abort(); }

  void shut_down() noexcept override {
    // An unfinished exchange may wait for a peer that will never come: only the abort ends it.
    if (phase_ != Phase::done) communicator_.abort();
    try {
      context_.runner.synchronize(Lane::pack);
    } catch (...) {  // a kernel fault was already reported, or the exchange is being abandoned
    }
  }

  std::string launch_description() const override {
    return "pack " + context_.runner.launch_shape(KernelOp::fused_pack) + ", one ncclSend and " +
           "one ncclRecv per peer (" + communicator_.peers_text() + ") in one group, unpack " +
           context_.runner.launch_shape(KernelOp::fused_unpack) + ", all on one stream";
  }

 private:
  enum class Phase { enqueuing, transferring, done };

  void launch_unpack() {
    context_.runner.launch(KernelOp::fused_unpack, 0);
    phase_ = Phase::transferring;
  }

  StrategyContext context_;
  PeerSpans spans_;
  void* stream_;
  NcclCommunicator communicator_;
  Phase phase_ = Phase::done;
};

}  // namespace

std::unique_ptr<ExchangeStrategy> make_nccl_strategy(StrategyContext context, MPI_Comm comm,
                                                     PeerSpans spans,
                                                     std::chrono::nanoseconds timeout) {
  return std::make_unique<NcclStrategy>(context, comm, std::move(spans), timeout);
}

}  // namespace haloflag::halo::detail
