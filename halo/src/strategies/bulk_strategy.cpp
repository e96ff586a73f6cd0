// comb_fused, comb_graph and stream_base (Alg. 1 of the paper): post the receives, pack every
// message in one kernel, wait for it, send everything, wait for every message, unpack in one
// kernel, wait for it. The waits are stream queries, so progress() never blocks. The transports
// do the CPU's part between the kernels: a transport whose pack writes into the receivers'
// memory (node) holds the pack kernel until every receiver has unpacked the previous exchange,
// and tells them when the pack kernel has finished and when the unpack has.
#include "strategies/exchange_strategy.hpp"

namespace haloflag::halo::detail {
namespace {

using kernels::KernelOp;
using kernels::Lane;

class BulkStrategy final : public ExchangeStrategy {
 public:
  BulkStrategy(Strategy strategy, StrategyContext context)
      : context_(context),
        graphs_(strategy == Strategy::comb_graph),
        pack_op_(strategy == Strategy::stream_base ? KernelOp::per_message_pack
                                                   : KernelOp::fused_pack),
        unpack_op_(strategy == Strategy::stream_base ? KernelOp::per_message_unpack
                                                     : KernelOp::fused_unpack) {}

  void start(std::uint64_t epoch, PackStart) override {
    epoch_ = epoch;
    for (auto& transport : context_.transports) transport->start(epoch);
    phase_ = Phase::awaiting_receivers;
    (void)progress_awaiting_receivers();
  }

  bool progress() override {
    if (phase_ == Phase::awaiting_receivers && !progress_awaiting_receivers()) return false;
    if (phase_ == Phase::packing) {
      if (!context_.runner.lane_idle(Lane::pack)) return false;
      // Every message became ready when the pack kernel finished.
      for (std::size_t m = 0; m < send_count(); ++m) context_.timeline.send_ready_seen(m);
      for (auto& transport : context_.transports) transport->send_packed(epoch_);
      phase_ = Phase::communicating;
    }
    if (phase_ == Phase::communicating) {
      bool delivered = true;
      for (auto& transport : context_.transports) {
        delivered = transport->delivered(epoch_) && delivered;
      }
      if (!delivered) return false;
      launch(unpack_op_);
      phase_ = Phase::unpacking;
    }
    if (phase_ == Phase::unpacking) {
      if (!context_.runner.lane_idle(Lane::pack)) return false;
      for (auto& transport : context_.transports) transport->unpacked(epoch_);
      for (std::size_t r = 0; r < recv_count(); ++r) context_.timeline.unpack_done_seen(r);
      phase_ = Phase::done;
    }
    return phase_ == Phase::done;
  }

  // The transports name what they wait for; this names the kernel.
  std::string pending() const override {
    switch (phase_) {
      case Phase::packing: return "\n  the pack kernel has not finished";
      case Phase::unpacking: return "\n  the unpack kernel has not finished";
      default: return {};
    }
  }

  void shut_down() noexcept override {
    try {
      context_.runner.synchronize(Lane::pack);
    } catch (...) {  // a kernel fault was already reported, or the exchange is being abandoned
    }
  }

  std::string launch_description() const override {
    return "pack " + context_.runner.launch_shape(pack_op_) + ", unpack " +
           context_.runner.launch_shape(unpack_op_) + (graphs_ ? ", each captured as a graph" : "");
  }

 private:
  enum class Phase { awaiting_receivers, packing, communicating, unpacking, done };

  // Launches the pack kernel once no receiver still needs the memory it writes into.
  bool progress_awaiting_receivers() {
    for (const auto& transport : context_.transports) {
      if (!transport->receivers_ready(epoch_)) return false;
    }
    launch(pack_op_);
    phase_ = Phase::packing;
    return true;
  }

  std::size_t send_count() const { return context_.resources.layouts.sends.size(); }
  std::size_t recv_count() const { return context_.resources.layouts.recvs.size(); }

  void launch(KernelOp op) {
    if (graphs_) {
      context_.runner.launch_graph(op);
    } else {
      context_.runner.launch(op, 0);
    }
  }

  StrategyContext context_;
  bool graphs_;
  KernelOp pack_op_;
  KernelOp unpack_op_;
  Phase phase_ = Phase::done;
  std::uint64_t epoch_ = 0;
  std::vector<std::size_t> completed_;
};

}  // namespace

std::unique_ptr<ExchangeStrategy> make_bulk_strategy(Strategy strategy, StrategyContext context) {
  return std::make_unique<BulkStrategy>(strategy, context);
}

}  // namespace haloflag::halo::detail
