// stream_notify, stacked_notify, resident and embedded: the order of work of the paper's Fig. 5.
// start() starts the pack work (a launch, or for resident and embedded the pack_start flag: for
// embedded the caller's own kernel packs and unpacks) and then starts every transport (MPI posts
// its receives), so the GPU packs while the CPU posts; progress() steps every transport (MPI
// sends each message as soon as its send_ready flag shows the epoch and hands each completed
// receive to the GPU; the piece grid's messages take no CPU step) and the exchange is done when
// all of them are and the launched kernels have ended.
#include <optional>
#include <stdexcept>
#include <string>

#include "strategies/exchange_strategy.hpp"
#include "strategies/resident_grids.hpp"

namespace haloflag::halo::detail {
namespace {

using kernels::KernelOp;
using kernels::Lane;

class NotifyStrategy final : public ExchangeStrategy {
 public:
  NotifyStrategy(Strategy strategy, StrategyContext context)
      : strategy_(strategy),
        context_(context),
        message_blocks_(any_runs(context.transports, DeviceWork::message_blocks)),
        piece_grid_(any_runs(context.transports, DeviceWork::piece_grid)) {
    // The caller launches the embedded kernel, so only the caller can know it fits.
    if (strategy_ == Strategy::embedded) return;
    // Refuse a grid that cannot be resident now, before any exchange starts.
    context_.runner.check_co_residency(strategy_ == Strategy::stacked_notify ? KernelOp::stacked
                                       : strategy_ == Strategy::resident   ? KernelOp::resident_pack
                                                                           : KernelOp::notify_pack);
    if (strategy_ == Strategy::resident) {
      // Resident kernels start now and serve exchange 1, 2, ... until shut_down(), leaving the
      // GPU while idle: the per-message kernels and the piece grid, for the transports that
      // use them.
      resident_.emplace(context_.runner, context_.resources, message_blocks_, piece_grid_);
      resident_->launch();
      resident_running_ = true;
    }
  }

  bool bring_back(std::uint64_t epoch) override {
    return resident_ ? resident_->bring_back(epoch) : true;
  }

  std::uint64_t relaunches() const override { return resident_ ? resident_->relaunches() : 0; }

  void start(std::uint64_t epoch, PackStart pack_start) override {
    epoch_ = epoch;
    // The pack work first: the GPU packs while the CPU posts the receives, which takes it a
    // while. No send is posted before start() returns, so every receive of this rank
    // is posted before any of its sends, as in Fig. 5. A start ordered on the caller's stream
    // stores pack_start itself, and the receives are posted meanwhile.
    if (pack_start == PackStart::by_strategy) start_pack_work(epoch);
    for (auto& transport : context_.transports) transport->start(epoch);
  }

  bool progress() override {
    bool done = true;
    for (auto& transport : context_.transports) done = transport->progress(epoch_) && done;
    if (!done) return false;
    // Every block has signalled; a launched kernel exits right after its last signal.
    if (strategy_ == Strategy::resident || strategy_ == Strategy::embedded) return true;
    return context_.runner.lane_idle(Lane::pack) && context_.runner.lane_idle(Lane::unpack) &&
           context_.runner.lane_idle(Lane::pieces);
  }

  // The transports name what they wait for; this adds, for resident kernels, a start that has
  // not reached them and grids launched again that have not begun.
  std::string pending() const override {
    if (!resident_) return {};
    std::string text;
    const std::uint64_t start = context_.resources.pack_start.value(0);
    if (start < epoch_) {
      text += "\n  pack_start = " + std::to_string(start) + ", waiting for " +
              std::to_string(epoch_) + ": the start of exchange " + std::to_string(epoch_) +
              " has not reached the kernels; start(stream) enqueued it, and the stream has not "
              "run it yet (work before it on that stream, or a wait there that never ends)";
    }
    return text + resident_->pending(epoch_);
  }

  void shut_down() noexcept override {
    try {
      if (resident_running_) {
        // kStopEpoch satisfies every wait and tells the blocks to return.
        context_.resources.pack_start.signal(0, kernels::kStopEpoch);
        for (std::uint32_t r = 0; r < context_.resources.plan.recv_count; ++r) {
          context_.resources.unpack_ready.signal(r, kernels::kStopEpoch);
        }
        resident_running_ = false;
      }
      context_.runner.synchronize(Lane::pack);
      context_.runner.synchronize(Lane::unpack);
      context_.runner.synchronize(Lane::pieces);
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
        return (message_blocks_
                    ? "resident pack " + context_.runner.launch_shape(KernelOp::resident_pack) +
                          ", resident unpack " +
                          context_.runner.launch_shape(KernelOp::resident_unpack) + ", "
                    : std::string()) +
               piece_grid_description(KernelOp::resident_piece_grid) + "launched once" +
               idle_exit_description();
      default:
        return (message_blocks_
                    ? "pack " + context_.runner.launch_shape(KernelOp::notify_pack) +
                          ", unpack " + context_.runner.launch_shape(KernelOp::notify_unpack) +
                          " on a second stream, "
                    : std::string()) +
               piece_grid_description(KernelOp::piece_grid) + "launched per exchange";
    }
  }

 private:
  // A launch, or the pack_start flag of the resident and embedded kernels.
  void start_pack_work(std::uint64_t epoch) {
    switch (strategy_) {
      case Strategy::stream_notify:
        if (message_blocks_) {
          context_.runner.launch(KernelOp::notify_pack, epoch);
          context_.runner.launch(KernelOp::notify_unpack, epoch);
        }
        if (piece_grid_) context_.runner.launch(KernelOp::piece_grid, epoch);
        break;
      case Strategy::stacked_notify:
        context_.runner.launch(KernelOp::stacked, epoch);
        break;
      case Strategy::resident:
        (void)resident_->bring_back(epoch);  // grids that left the GPU idle come back first
        [[fallthrough]];
      case Strategy::embedded:
        // The previous exchange has finished (its sends completed): the send buffer is free.
        context_.resources.pack_start.signal(0, epoch);
        break;
      default:
        throw std::logic_error("not a flag strategy: " + std::string(to_string(strategy_)));
    }
  }

  // When resident kernels leave the GPU, for launch_description().
  std::string idle_exit_description() const {
    const std::uint64_t window = context_.resources.plan.idle.window_ns;
    if (window == 0) return ", never leaving the GPU";
    return ", leaving the GPU after " +
           describe_idle_window(std::chrono::nanoseconds(static_cast<std::int64_t>(window))) +
           " without an exchange";
  }

  // The piece grid's shape and pieces, for launch_description(); empty without it.
  std::string piece_grid_description(KernelOp op) const {
    if (!piece_grid_) return {};
    const kernels::PieceGrid& grid = context_.resources.plan.pieces;
    return "piece grid " + context_.runner.launch_shape(op) + " (" +
           std::to_string(grid.send_pieces) + " send and " +
           std::to_string(grid.recv_pieces) + " receive pieces), ";
  }

  Strategy strategy_;
  StrategyContext context_;
  bool message_blocks_;  // some transport's messages are packed by a block each
  bool piece_grid_;      // some transport's messages move in pieces by the piece grid
  std::uint64_t epoch_ = 0;
  std::optional<ResidentGrids> resident_;  // Strategy::resident's grids
  bool resident_running_ = false;
};

}  // namespace

std::unique_ptr<ExchangeStrategy> make_notify_strategy(Strategy strategy, StrategyContext context) {
  return std::make_unique<NotifyStrategy>(strategy, context);
}

}  // namespace haloflag::halo::detail
