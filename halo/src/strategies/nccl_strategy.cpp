// nccl: the baseline a user without CUDA-aware MPI picks on a multi-GPU node. Comb's fused pack
// kernel writes each peer's messages back to back into that peer's span of one device buffer,
// the transports enqueue their transfers after it on the pack lane's stream (the nccl
// transport: one NCCL group of a ncclSend and a ncclRecv per peer), and the fused unpack kernel
// follows, so the only host synchronisation is the wait for that stream (lane_idle, polled, so
// progress() never blocks). A failed exchange abandons the transports, whose transfers have no
// deadline of their own, so that the stream drains.
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
    context_.runner.launch(KernelOp::fused_pack, 0);
    for (auto& transport : context_.transports) {
      transport->start(epoch);
      transport->send_packed(epoch);
    }
    phase_ = Phase::enqueuing;
    (void)enqueue_unpack();
  }

  bool progress() override {
    if (phase_ == Phase::enqueuing && !enqueue_unpack()) return false;
    if (phase_ == Phase::transferring) {
      for (auto& transport : context_.transports) (void)transport->progress(epoch_);
      if (!context_.runner.lane_idle(Lane::pack)) return false;
      for (auto& transport : context_.transports) transport->unpacked(epoch_);
      // The stream ran the transfers and the unpack: each receive is seen at its end. No pack's
      // end is seen (the stream goes on to the transfers), so no send_ready is recorded.
      for (std::size_t r = 0; r < context_.resources.layouts.recvs.size(); ++r) {
        context_.timeline.received(r);
        context_.timeline.unpack_done_seen(r);
      }
      phase_ = Phase::done;
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

  // The unpack kernel follows once every transfer is on the stream.
  bool enqueue_unpack() {
    for (auto& transport : context_.transports) {
      if (!transport->delivered(epoch_)) return false;
    }
    // Every send is on the stream: the host's part of the sends ends here.
    for (std::size_t m = 0; m < context_.resources.layouts.sends.size(); ++m) {
      context_.timeline.send_posted(m);
    }
    context_.runner.launch(KernelOp::fused_unpack, 0);
    phase_ = Phase::transferring;
    return true;
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
