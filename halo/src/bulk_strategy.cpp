// comb_fused, comb_graph and stream_base (Alg. 1 of the paper): post the receives, pack every
// message in one kernel, wait for it, send everything, wait for every message, unpack in one
// kernel, wait for it. The waits are stream queries, so progress() never blocks.
#include "exchange_strategy.hpp"

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

  void start(std::uint64_t) override {
    context_.requests.post_receives();
    launch(pack_op_);
    phase_ = Phase::packing;
  }

  bool progress() override {
    if (phase_ == Phase::packing) {
      if (!context_.runner.lane_idle(Lane::pack)) return false;
      // Every message became ready when the pack kernel finished.
      for (std::size_t m = 0; m < context_.requests.send_count(); ++m) {
        context_.timeline.send_ready_seen(m);
      }
      for (std::size_t m = 0; m < context_.requests.send_count(); ++m) {
        context_.requests.send(m);
        context_.timeline.send_posted(m);
      }
      phase_ = Phase::communicating;
    }
    if (phase_ == Phase::communicating) {
      completed_.clear();
      context_.requests.test_receives(completed_);
      for (std::size_t r : completed_) context_.timeline.received(r);
      const bool sends_done = context_.requests.test_sends();
      if (!sends_done || !context_.requests.receives_complete()) return false;
      launch(unpack_op_);
      phase_ = Phase::unpacking;
    }
    if (phase_ == Phase::unpacking) {
      if (!context_.runner.lane_idle(Lane::pack)) return false;
      for (std::size_t r = 0; r < context_.requests.recv_count(); ++r) {
        context_.timeline.unpack_done_seen(r);
      }
      phase_ = Phase::done;
    }
    return phase_ == Phase::done;
  }

  std::string pending() const override {
    switch (phase_) {
      case Phase::packing: return "the pack kernel has not finished";
      case Phase::communicating: return "waiting for MPI";
      case Phase::unpacking: return "the unpack kernel has not finished";
      case Phase::done: return "done";
    }
    return {};
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
  enum class Phase { packing, communicating, unpacking, done };

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
  std::vector<std::size_t> completed_;
};

}  // namespace

std::unique_ptr<ExchangeStrategy> make_bulk_strategy(Strategy strategy, StrategyContext context) {
  return std::make_unique<BulkStrategy>(strategy, context);
}

}  // namespace haloflag::halo::detail
