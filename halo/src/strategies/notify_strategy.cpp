// stream_notify, stacked_notify, resident and embedded: the CPU state machine of the paper's
// Fig. 5. start() starts the pack work (a launch, or for resident and embedded the pack_start
// flag: for embedded the caller's own kernel packs and unpacks) and then posts the receives,
// so the GPU packs while the CPU posts; they are posted before any send; progress() sends each
// message as soon as its send_ready flag shows the epoch, sets unpack_ready for each receive
// that completed, and is done when every send completed and every unpack_done flag shows the
// epoch. Receives are tested while sends wait only once, when the short sends are out, or on
// every pass with long sends in turn (AdvancedOptions::long_sends_in_turn). Long receives may
// be posted one by one as their messages arrive (AdvancedOptions::long_receives_on_arrival).
// (Receives still in MPI's hands are listed by requests.pending().) Messages of the node
// transport take no CPU step: the node grid moves them in pieces between the GPUs
// (transports/node_pieces.hpp), and the CPU reads one flag, node_done, to see that all of them
// are done.
#include <stdexcept>
#include <string>

#include "strategies/exchange_strategy.hpp"

namespace haloflag::halo::detail {
namespace {

using kernels::KernelOp;
using kernels::Lane;

class NotifyStrategy final : public ExchangeStrategy {
 public:
  NotifyStrategy(Strategy strategy, StrategyContext context, std::int64_t on_arrival_from_bytes)
      : strategy_(strategy),
        context_(context),
        on_arrival_from_bytes_(on_arrival_from_bytes),
        receives_between_sends_(context.resources.plan.long_sends_in_turn &&
                                strategy != Strategy::embedded) {
    // The caller launches the embedded kernel, so only the caller can know it fits.
    if (strategy_ == Strategy::embedded) return;
    // Refuse a grid that cannot be resident now, before any exchange starts.
    context_.runner.check_co_residency(strategy_ == Strategy::stacked_notify ? KernelOp::stacked
                                       : strategy_ == Strategy::resident   ? KernelOp::resident_pack
                                                                           : KernelOp::notify_pack);
    if (strategy_ == Strategy::resident) {
      // Resident kernels start now and serve exchange 1, 2, ... until shut_down(): the
      // per-message kernels for the MPI messages, the node grid for the node transport's.
      if (context_.resources.plan.mpi_messages) {
        context_.runner.launch(KernelOp::resident_pack, 1);
        context_.runner.launch(KernelOp::resident_unpack, 1);
      }
      if (context_.node.any()) context_.runner.launch(KernelOp::resident_node, 1);
      resident_running_ = true;
    }
  }

  void start(std::uint64_t epoch, PackStart pack_start) override {
    epoch_ = epoch;
    unsent_.clear();
    short_sends_unsent_ = 0;
    node_pending_ = context_.node.any();
    for (std::size_t m = 0; m < context_.requests.send_count(); ++m) {
      if (!context_.requests.over_mpi_send(m)) continue;
      unsent_.push_back(m);
      if (!kernels::is_long(context_.resources.plan, context_.resources.layouts.sends[m])) {
        ++short_sends_unsent_;
      }
    }
    short_receives_tested_ = false;
    awaiting_unpack_.clear();
    // Node receives need no MPI: node_done reports them.
    received_ = context_.node.node_recv_count();

    // The pack work first: the GPU packs while the CPU posts the receives, which takes it a
    // while. No send is posted before start() returns, so every receive of this rank
    // is posted before any of its sends, as in Fig. 5. A start ordered on the caller's stream
    // stores pack_start itself, and the receives are posted meanwhile.
    if (pack_start == PackStart::by_strategy) start_pack_work(epoch);
    context_.requests.post_receives(on_arrival_from_bytes_);
  }

  bool progress() override {
    ExchangeResources& resources = context_.resources;
    MessageRequests& requests = context_.requests;

    // Sends: each one as soon as the GPU has packed it.
    std::erase_if(unsent_, [&](std::size_t m) {
      if (!resources.send_ready.test(static_cast<std::uint32_t>(m), epoch_)) return false;
      context_.timeline.send_ready_seen(m);
      requests.send(m);
      context_.timeline.send_posted(m);
      if (!kernels::is_long(resources.plan, resources.layouts.sends[m])) --short_sends_unsent_;
      return true;
    });
    // Node messages: every one packed (the fields read, the receiver told) and unpacked.
    if (node_pending_ && resources.node_done->test(0, epoch_)) {
      node_pending_ = false;
      for (std::size_t m = 0; m < requests.send_count(); ++m) {
        if (!requests.over_mpi_send(m)) context_.timeline.send_ready_seen(m);
      }
      for (std::size_t r = 0; r < requests.recv_count(); ++r) {
        if (!requests.over_mpi_recv(r)) context_.timeline.unpack_done_seen(r);
      }
    }
    // Sends first: MPI moves received data on this CPU thread inside the receive tests (long
    // for large messages), and a send found ready meanwhile would wait for it. The packs never
    // wait for MPI, so the short sends are posted without receive progress. Once they are out,
    // the long sends still need the GPU a while, and one receive test takes in the peer's short
    // messages meanwhile: Open MPI work that would otherwise come after the last send. Long
    // sends in turn are signalled one after another over that time and the peer's first long
    // messages arrive meanwhile, so then the receives are tested on every pass, one arrived
    // long receive posted (copied) at a time. (Testing on every pass while the long sends pack
    // all together delays the last send more than it gains: docs/results/exchange_journal.md.)
    if (!unsent_.empty()) {
      if (short_sends_unsent_ == 0 && (receives_between_sends_ || !short_receives_tested_)) {
        short_receives_tested_ = true;
        signal_completed_receives();
        if (receives_between_sends_) post_arrived_receive();
        // Reports what the first call's progress completed: Open MPI's MPI_Testsome reports
        // only requests that were complete when it was called.
        signal_completed_receives();
      }
      return false;
    }
    // Receives: each completed one may be unpacked now.
    signal_completed_receives();
    // Long receives posted on arrival (AdvancedOptions::long_receives_on_arrival), one at a
    // time: posting it copies the message (Open MPI's shared-memory transport), and the GPU
    // unpacks it while the next one is copied. Every arrived one is posted before the sends
    // are tested and the unpack flags read, so that work does not fall between two copies.
    while (post_arrived_receive()) signal_completed_receives();
    context_.timeline.mpi_call_begin();
    const bool sends_done = requests.test_sends();
    context_.timeline.mpi_call_end(MpiCall::test_sends, 0);
    // Only receives already handed to the GPU can be unpacked: each flag read is a cache miss.
    std::erase_if(awaiting_unpack_, [&](std::size_t r) {
      if (!resources.unpack_done.test(static_cast<std::uint32_t>(r), epoch_)) return false;
      context_.timeline.unpack_done_seen(r);
      return true;
    });
    if (!sends_done || received_ < requests.recv_count() || !awaiting_unpack_.empty() ||
        node_pending_) {
      return false;
    }
    // Every block has signalled; a launched kernel exits right after its last signal.
    if (strategy_ == Strategy::resident || strategy_ == Strategy::embedded) return true;
    return context_.runner.lane_idle(Lane::pack) && context_.runner.lane_idle(Lane::unpack) &&
           context_.runner.lane_idle(Lane::node);
  }

  std::string pending() const override {
    std::string text;
    if (node_pending_) {
      // Which node messages are done only the GPUs know (their flags are in device memory):
      // name them all.
      text += "\n  node_done[0] = " + std::to_string(context_.resources.node_done->value(0)) +
              ", waiting for " + std::to_string(epoch_) + ": not every node message is done";
      for (std::size_t m = 0; m < context_.requests.send_count(); ++m) {
        if (!context_.requests.over_mpi_send(m)) {
          text += "\n  " + context_.names.send(m) + ": node transport, not confirmed";
        }
      }
      for (std::size_t r = 0; r < context_.requests.recv_count(); ++r) {
        if (!context_.requests.over_mpi_recv(r)) {
          text += "\n  " + context_.names.recv(r) + ": node transport, not confirmed";
        }
      }
    }
    for (std::size_t m : unsent_) {
      text += "\n  send_ready[" + std::to_string(m) + "] = " +
              std::to_string(context_.resources.send_ready.value(static_cast<std::uint32_t>(m))) +
              ", waiting for " + std::to_string(epoch_);
    }
    for (std::size_t r : awaiting_unpack_) {
      text += "\n  unpack_done[" + std::to_string(r) + "] = " +
              std::to_string(context_.resources.unpack_done.value(static_cast<std::uint32_t>(r))) +
              " (unpack_ready " +
              std::to_string(context_.resources.unpack_ready.value(static_cast<std::uint32_t>(r))) +
              "), waiting for " + std::to_string(epoch_);
    }
    return text;
  }

  void shut_down() noexcept override {
    try {
      if (resident_running_) {
        // kStopEpoch satisfies every wait and tells the blocks to return.
        context_.resources.pack_start.signal(0, kernels::kStopEpoch);
        for (std::uint32_t r = 0; r < context_.requests.recv_count(); ++r) {
          context_.resources.unpack_ready.signal(r, kernels::kStopEpoch);
        }
        resident_running_ = false;
      }
      context_.runner.synchronize(Lane::pack);
      context_.runner.synchronize(Lane::unpack);
      context_.runner.synchronize(Lane::node);
    } catch (...) {  // a kernel fault was already reported, or the exchange is being abandoned
    }
  }

  std::string launch_description() const override {
    switch (strategy_) {
      case Strategy::stacked_notify:
        return "one cooperative kernel of " + context_.runner.launch_shape(KernelOp::stacked) +
               ", messages of at least " +
               std::to_string(context_.resources.plan.long_message_bytes) +
               " bytes packed by the whole grid";
      case Strategy::embedded:
        return "no kernel launched: the caller's kernel packs " +
               std::to_string(context_.resources.plan.send_count) + " sends and unpacks " +
               std::to_string(context_.resources.plan.recv_count) +
               " receives through the embedded API";
      case Strategy::resident:
        return (context_.resources.plan.mpi_messages
                    ? "resident pack " + context_.runner.launch_shape(KernelOp::resident_pack) +
                          ", resident unpack " +
                          context_.runner.launch_shape(KernelOp::resident_unpack) + ", "
                    : std::string()) +
               node_grid_description(KernelOp::resident_node) + "launched once";
      default:
        return (context_.resources.plan.mpi_messages
                    ? "pack " + context_.runner.launch_shape(KernelOp::notify_pack) +
                          ", unpack " + context_.runner.launch_shape(KernelOp::notify_unpack) +
                          " on a second stream, "
                    : std::string()) +
               node_grid_description(KernelOp::node_pieces) + "launched per exchange";
    }
  }

 private:
  // A launch, or the pack_start flag of the resident and embedded kernels.
  void start_pack_work(std::uint64_t epoch) {
    switch (strategy_) {
      case Strategy::stream_notify:
        if (context_.resources.plan.mpi_messages) {
          context_.runner.launch(KernelOp::notify_pack, epoch);
          context_.runner.launch(KernelOp::notify_unpack, epoch);
        }
        if (context_.node.any()) context_.runner.launch(KernelOp::node_pieces, epoch);
        break;
      case Strategy::stacked_notify:
        context_.runner.launch(KernelOp::stacked, epoch);
        break;
      case Strategy::resident:
      case Strategy::embedded:
        // The previous exchange has finished (its sends completed): the send buffer is free.
        context_.resources.pack_start.signal(0, epoch);
        break;
      default:
        throw std::logic_error("not a flag strategy: " + std::string(to_string(strategy_)));
    }
  }

  // The node grid's shape and pieces, for launch_description(); empty without node peers.
  std::string node_grid_description(KernelOp op) const {
    if (!context_.node.any()) return {};
    const kernels::NodePlan& node = context_.resources.plan.node;
    return "node grid " + context_.runner.launch_shape(op) + " (" +
           std::to_string(node.send_piece_count) + " send and " +
           std::to_string(node.recv_piece_count) + " receive pieces), ";
  }

  // Tests the posted receives and hands each completed one to the GPU.
  void signal_completed_receives() {
    completed_.clear();
    context_.timeline.mpi_call_begin();
    context_.requests.test_receives(completed_);
    context_.timeline.mpi_call_end(MpiCall::test_receives, completed_.size());
    for (std::size_t r : completed_) {
      context_.timeline.received(r);
      context_.resources.unpack_ready.signal(static_cast<std::uint32_t>(r), epoch_);
      awaiting_unpack_.push_back(r);
    }
    received_ += completed_.size();
  }

  // Posts one long receive whose message has arrived (AdvancedOptions::long_receives_on_arrival).
  bool post_arrived_receive() {
    context_.timeline.mpi_call_begin();
    const bool posted = context_.requests.post_arrived_receive();
    context_.timeline.mpi_call_end(MpiCall::post_arrived_receive, posted ? 1 : 0);
    return posted;
  }

  Strategy strategy_;
  StrategyContext context_;
  std::int64_t on_arrival_from_bytes_;  // receives this long are posted on arrival; 0: none
  // Long sends in turn (AdvancedOptions::long_sends_in_turn): receives progress while sends wait.
  bool receives_between_sends_;
  std::uint32_t short_sends_unsent_ = 0;  // short sends not posted yet this exchange
  bool short_receives_tested_ = false;     // receives tested since the short sends are out
  std::uint64_t epoch_ = 0;
  std::vector<std::size_t> unsent_;  // MPI sends not posted yet
  bool node_pending_ = false;        // node messages of this exchange, node_done not seen yet
  std::size_t received_ = 0;                   // receives completed this exchange
  std::vector<std::size_t> awaiting_unpack_;  // received, unpack_done not seen yet
  std::vector<std::size_t> completed_;
  bool resident_running_ = false;
};

}  // namespace

std::unique_ptr<ExchangeStrategy> make_notify_strategy(Strategy strategy, StrategyContext context,
                                                       std::int64_t on_arrival_from_bytes) {
  return std::make_unique<NotifyStrategy>(strategy, context, on_arrival_from_bytes);
}

}  // namespace haloflag::halo::detail
