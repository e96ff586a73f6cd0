// nccl: the baseline a user without CUDA-aware MPI picks on a multi-GPU node. Comb's fused pack
// kernel writes each peer's messages back to back into that peer's span of one device buffer,
// the transports enqueue their transfers after it on the pack lane's stream (the nccl
// transport: one NCCL group of a ncclSend and a ncclRecv per peer), and the fused unpack kernel
// follows, so the only host synchronisation is the wait for that stream (lane_idle, polled, so
// progress() never blocks). A failed exchange abandons the transports, whose transfers have no
// deadline of their own, so that the stream drains.
//
// The fast path is what a plain program does: launch, group, launch, then stream queries. The
// transports start before the pack launch, so nothing runs between the launch and the group;
// a traced exchange stamps each step (StreamTimeline) and nothing else is stamped when untraced.
#include <string>

#include "strategies/exchange_strategy.hpp"

namespace haloflag::halo::detail {
namespace {

using kernels::KernelOp;
using kernels::Lane;

class NcclStrategy final : public ExchangeStrategy {
 public:
  explicit NcclStrategy(StrategyContext context) : context_(context) {}

  void start(std::uint64_t epoch, PackStart) override {
    epoch_ = epoch;
    for (auto& transport : context_.transports) transport->start(epoch);
    context_.runner.launch(KernelOp::fused_pack, 0);
    context_.timeline.pack_launched();
    for (auto& transport : context_.transports) transport->send_packed(epoch);
    context_.timeline.transfers_enqueued();
    phase_ = Phase::enqueuing;
    (void)enqueue_unpack();
  }

  bool progress() override {
    if (phase_ == Phase::enqueuing && !enqueue_unpack()) return false;
    if (phase_ == Phase::transferring) {
      // The stream query first: the usual poll that finds the stream done does nothing else.
      if (!context_.runner.lane_idle(Lane::pack)) {
        for (auto& transport : context_.transports) (void)transport->progress(epoch_);
        return false;
      }
      finish_exchange();
    }
    return phase_ == Phase::done;
  }

  // The transports name what they wait for.
  std::string pending() const override { return {}; }

  void shut_down() noexcept override {
    // An unfinished exchange may wait for a peer that will never come: only the abort ends it.
    if (phase_ != Phase::done) {
      for (auto& transport : context_.transports) transport->abandon();
    }
    try {
      context_.runner.synchronize(Lane::pack);
    } catch (...) {  // a kernel fault was already reported, or the exchange is being abandoned
    }
  }

  std::string launch_description() const override {
    std::string names;
    for (const auto& transport : context_.transports) {
      names += (names.empty() ? "" : ", ") + std::string(transport->name());
    }
    return "pack " + context_.runner.launch_shape(KernelOp::fused_pack) + ", the transfers of " +
           names + " (one ncclSend and one ncclRecv per peer in one group), unpack " +
           context_.runner.launch_shape(KernelOp::fused_unpack) + ", all on one stream";
  }

 private:
  enum class Phase { enqueuing, transferring, done };

  // The unpack kernel follows once every transfer is on the stream (at once with a blocking
  // NCCL communicator).
  bool enqueue_unpack() {
    for (auto& transport : context_.transports) {
      if (!transport->delivered(epoch_)) return false;
    }
    context_.runner.launch(KernelOp::fused_unpack, 0);
    context_.timeline.unpack_launched();
    for (auto& transport : context_.transports) transport->stream_work_enqueued(epoch_);
    phase_ = Phase::transferring;
    return true;
  }

  // The stream ran the transfers and the unpack.
  void finish_exchange() {
    context_.timeline.stream_done_seen();
    for (auto& transport : context_.transports) transport->unpacked(epoch_);
    context_.timeline.messages_at_stream_steps();
    phase_ = Phase::done;
  }

  StrategyContext context_;
  std::uint64_t epoch_ = 0;
  Phase phase_ = Phase::done;
};

}  // namespace

std::unique_ptr<ExchangeStrategy> make_nccl_strategy(StrategyContext context) {
  return std::make_unique<NcclStrategy>(context);
}

}  // namespace haloflag::halo::detail
