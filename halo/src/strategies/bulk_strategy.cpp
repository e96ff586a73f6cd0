// comb_fused, comb_graph and stream_base (Alg. 1 of the paper): post the receives, pack every
// message in one kernel, wait for it, send everything, wait for every message, unpack in one
// kernel, wait for it. The waits are stream queries, so progress() never blocks.
//
// Over the node transport the pack kernel writes node messages straight into the receivers'
// buffers, so it starts only once every node receiver has unpacked the previous exchange; after
// the pack kernel the CPU tells each node receiver its message is there, and the unpack kernel
// starts once MPI has delivered and every node sender has told. The notes go through the
// node's shared memory (NodeTransport's mailbox).
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
    context_.requests.post_receives();
    phase_ = Phase::awaiting_receivers;
    (void)progress_awaiting_receivers();
  }

  bool progress() override {
    if (phase_ == Phase::awaiting_receivers && !progress_awaiting_receivers()) return false;
    if (phase_ == Phase::packing) {
      if (!context_.runner.lane_idle(Lane::pack)) return false;
      // Every message became ready when the pack kernel finished.
      for (std::size_t m = 0; m < context_.requests.send_count(); ++m) {
        context_.timeline.send_ready_seen(m);
      }
      for (std::size_t m = 0; m < context_.requests.send_count(); ++m) {
        if (context_.requests.over_mpi_send(m)) {
          context_.requests.send(m);
        } else {
          context_.node.announce_packed(m, epoch_);
        }
        context_.timeline.send_posted(m);
      }
      phase_ = Phase::communicating;
    }
    if (phase_ == Phase::communicating) {
      completed_.clear();
      context_.requests.test_receives(completed_);
      for (std::size_t r : completed_) context_.timeline.received(r);
      const bool sends_done = context_.requests.test_sends();
      if (!sends_done || !context_.requests.receives_complete() || !node_messages_arrived()) {
        return false;
      }
      launch(unpack_op_);
      phase_ = Phase::unpacking;
    }
    if (phase_ == Phase::unpacking) {
      if (!context_.runner.lane_idle(Lane::pack)) return false;
      for (std::size_t r = 0; r < context_.requests.recv_count(); ++r) {
        if (!context_.requests.over_mpi_recv(r)) context_.node.announce_unpacked(r, epoch_);
        context_.timeline.unpack_done_seen(r);
      }
      phase_ = Phase::done;
    }
    return phase_ == Phase::done;
  }

  std::string pending() const override {
    switch (phase_) {
      case Phase::awaiting_receivers:
        return unfinished_node_sends() + unarrived_node_receives();
      case Phase::packing: return "the pack kernel has not finished" + unarrived_node_receives();
      case Phase::communicating:
        return "\n  waiting for MPI" + unarrived_node_receives();
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
  enum class Phase { awaiting_receivers, packing, communicating, unpacking, done };

  // Launches the pack kernel once no node receiver still needs its buffer.
  bool progress_awaiting_receivers() {
    for (std::size_t m = 0; m < context_.requests.send_count(); ++m) {
      if (!context_.requests.over_mpi_send(m) &&
          !context_.node.receiver_unpacked(m, epoch_ - 1)) {
        return false;
      }
    }
    launch(pack_op_);
    phase_ = Phase::packing;
    return true;
  }

  bool node_messages_arrived() const {
    for (std::size_t r = 0; r < context_.requests.recv_count(); ++r) {
      if (!context_.requests.over_mpi_recv(r) && !context_.node.arrived(r, epoch_)) return false;
    }
    return true;
  }

  std::string unfinished_node_sends() const {
    std::string text;
    for (std::size_t m = 0; m < context_.requests.send_count(); ++m) {
      if (!context_.requests.over_mpi_send(m) && !context_.node.receiver_unpacked(m, epoch_ - 1)) {
        text += "\n  " + context_.names.send(m) + ": the receiver has not unpacked exchange " +
                std::to_string(epoch_ - 1) + " (node transport)";
      }
    }
    return text;
  }

  std::string unarrived_node_receives() const {
    std::string text;
    for (std::size_t r = 0; r < context_.requests.recv_count(); ++r) {
      if (!context_.requests.over_mpi_recv(r) && !context_.node.arrived(r, epoch_)) {
        text += "\n  " + context_.names.recv(r) + ": not announced by the sender (node transport)";
      }
    }
    return text;
  }

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
