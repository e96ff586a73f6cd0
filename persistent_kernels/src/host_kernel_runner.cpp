// The host backend's KernelRunner: three lanes of CPU threads run the block programs. A "block"
// is one thread; a lane of T threads runs blocks t, t + T, ... in order, so flag-driven blocks
// that wait in turn never deadlock and need no co-residency. Only the stacked grid needs all
// its blocks at once (they wait on block 0): it uses exactly the lane's T threads.
#include <memory>
#include <string>

#include "haloflag/kernels/block_programs.hpp"
#include "haloflag/kernels/fused_chunks.hpp"
#include "haloflag/kernels/host_groups.hpp"
#include "host_lane.hpp"
#include "runner_factories.hpp"

namespace haloflag::kernels::detail {
namespace {

class HostKernelRunner final : public KernelRunner {
 public:
  HostKernelRunner(const ExchangePlan& plan, const LaunchSettings& settings)
      : plan_(plan),
        pack_lane_("host pack lane", settings.host_threads),
        unpack_lane_("host unpack lane", settings.host_threads),
        pieces_lane_("host node lane", settings.host_threads) {}

  void launch(KernelOp op, std::uint64_t epoch) override {
    lane(lane_of(op)).submit(job(op, epoch));
  }

  void launch_resident(KernelOp op, std::uint64_t first_epoch, std::uint64_t generation) override {
    if (op != KernelOp::resident_pack && op != KernelOp::resident_unpack &&
        op != KernelOp::resident_piece_grid) {
      throw KernelError("launch_resident() of " + std::string(to_string(op)) +
                        ", which is not a resident kernel");
    }
    lane(lane_of(op)).submit(job(op, first_epoch, generation));
  }

  void launch_graph(KernelOp op) override { launch(op, 0); }

  bool lane_idle(Lane which) override { return lane(which).idle(); }
  void synchronize(Lane which) override { lane(which).synchronize(); }

  std::string launch_shape(KernelOp op) const override {
    const int threads = pack_lane_.threads();
    if (op == KernelOp::stacked) {
      return std::to_string(threads) + " host threads, all at once";
    }
    return std::to_string(threads) + " host threads, one block = one thread";
  }

  // A lane runs its blocks in turn on its threads, so only the stacked grid needs its blocks at
  // once, and it is sized to the lane.
  void check_co_residency(KernelOp) override {}
  void* gpu_stream(Lane) const override { return nullptr; }

 private:
  HostLane& lane(Lane which) {
    if (which == Lane::pieces) return pieces_lane_;
    return which == Lane::pack ? pack_lane_ : unpack_lane_;
  }

  // Runs body(message) for the messages [0, count) this thread owns.
  template <class Body>
  static void for_my_blocks(std::uint32_t count, int thread, int threads, Body body) {
    for (std::uint32_t m = static_cast<std::uint32_t>(thread); m < count;
         m += static_cast<std::uint32_t>(threads)) {
      body(m);
    }
  }

  // The same for the sends, short ones first: a long send waits until every short one is
  // signalled (pack_block), and a thread runs its blocks one after another. The layouts decide,
  // not the plan's short-first lists: plans built outside an Exchange (the pack/unpack
  // calibration's) carry none.
  template <class Body>
  static void for_my_sends(const ExchangePlan& plan, int thread, int threads, Body body) {
    for (const bool long_pass : {false, true}) {
      for_my_blocks(plan.send_count, thread, threads, [&](std::uint32_t m) {
        if (is_long(plan, plan.sends[m]) == long_pass) body(m);
      });
    }
  }

  // The resident grids' jobs, out of job() so that each op's epoch loop reads on its own: each
  // thread runs its blocks epoch after epoch from `epoch` on until one ends them (stopped,
  // failed, or the grid left idle: end_resident_block says what that releases).
  // A thread without blocks has nothing to wait for and must not spin through epochs.
  static HostLane::Job resident_pack_job(const ExchangePlan& plan, const HostThreadGroup block,
                                         std::uint64_t epoch, std::uint64_t generation) {
    return [plan, block, epoch, generation](int thread, int threads) {
      if (static_cast<std::uint32_t>(thread) >= plan.send_count) return;
      const ResidentLaunch launch{ResidentGrid::messages, generation};
      if (thread == 0) say_launched(plan, launch, epoch);
      for (std::uint64_t e = epoch;; ++e) {
        // Thread 0 runs the block of message 0, which watches the host's flag. A thread waits
        // once per epoch, then packs its blocks, short sends first.
        BlockStatus status = resident_pack_start(block, plan, thread == 0,
                                                 static_cast<std::uint32_t>(thread), launch, e);
        for_my_sends(plan, thread, threads, [&](std::uint32_t m) {
          if (status == BlockStatus::ok) status = pack_block(block, plan, m, e);
        });
        if (status != BlockStatus::ok) return end_resident_block(plan, status);
      }
    };
  }

  static HostLane::Job resident_unpack_job(const ExchangePlan& plan, const HostThreadGroup block,
                                           std::uint64_t epoch, std::uint64_t generation) {
    return [plan, block, epoch, generation](int thread, int threads) {
      if (static_cast<std::uint32_t>(thread) >= plan.recv_count) return;
      const ResidentLaunch launch{ResidentGrid::messages, generation};
      for (std::uint64_t e = epoch;; ++e) {
        BlockStatus status = BlockStatus::ok;
        for_my_blocks(plan.recv_count, thread, threads, [&](std::uint32_t r) {
          if (status == BlockStatus::ok) status = resident_unpack_step(block, plan, r, launch, e);
        });
        if (status != BlockStatus::ok) return end_resident_block(plan, status);
      }
    };
  }

  template <LinesCode Lines>
  static HostLane::Job resident_piece_grid_job(const ExchangePlan& plan,
                                               const HostThreadGroup block, std::uint64_t epoch,
                                               std::uint64_t generation) {
    return [plan, block, epoch, generation](int thread, int threads) {
      const ResidentLaunch launch{ResidentGrid::pieces, generation};
      if (thread == 0) say_launched(plan, launch, epoch);
      for (std::uint64_t e = epoch;; ++e) {
        const BlockStatus status =
            resident_piece_grid_step<Lines>(block, plan, static_cast<std::uint32_t>(thread),
                                            static_cast<std::uint32_t>(threads), launch, e);
        if (status != BlockStatus::ok) return end_resident_block(plan, status);
      }
    };
  }

  // A grid whose blocks all run at once (stacked, piece grid): `program` with thread t of the
  // lane as block t of the lane's threads.
  template <auto program>
  static HostLane::Job one_block_per_thread_job(const ExchangePlan& plan,
                                                const HostThreadGroup block, std::uint64_t epoch) {
    return [plan, block, epoch](int thread, int threads) {
      program(block, plan, static_cast<std::uint32_t>(thread),
              static_cast<std::uint32_t>(threads), epoch);
    };
  }

  // The fused kernels' grid shares each message's chunks among its threads (fused_chunks.hpp):
  // here every thread of the lane is one of them, so CI runs the GPU's chunked moves and how
  // they split a message.
  static HostLane::Job fused_job(KernelOp op, const ExchangePlan& plan) {
    if (op == KernelOp::fused_pack) {
      return [plan](int thread, int threads) {
        for (std::uint32_t m = 0; m < plan.send_count; ++m) {
          fused_pack_message(plan.sends[m], fields_of(plan), send_data(plan, m),
                             static_cast<std::uint32_t>(thread),
                             static_cast<std::uint32_t>(threads));
        }
      };
    }
    return [plan](int thread, int threads) {
      for (std::uint32_t r = 0; r < plan.recv_count; ++r) {
        fused_unpack_message(plan.recvs[r], fields_of(plan), recv_data(plan, r),
                             static_cast<std::uint32_t>(thread),
                             static_cast<std::uint32_t>(threads));
      }
    };
  }

  // The job that runs `op` of `epoch` on a lane: the block programs of the op, spread over the
  // lane's threads. The lambdas hold copies, so that the job outlives this call.
  HostLane::Job job(KernelOp op, std::uint64_t epoch, std::uint64_t generation = 1) {
    const ExchangePlan plan = plan_;
    const HostThreadGroup block;
    switch (op) {
      case KernelOp::fused_pack:
      case KernelOp::fused_unpack:
        return fused_job(op, plan);
      case KernelOp::per_message_pack:
        return [plan](int thread, int threads) {
          for_my_blocks(plan.send_count, thread, threads, [&](std::uint32_t m) {
            pack_message_at(plan.sends[m], fields_of(plan), send_data(plan, m), 0, 1);
          });
        };
      case KernelOp::per_message_unpack:
        return [plan](int thread, int threads) {
          for_my_blocks(plan.recv_count, thread, threads, [&](std::uint32_t r) {
            unpack_message_from(plan.recvs[r], fields_of(plan), recv_data(plan, r), 0, 1);
          });
        };
      case KernelOp::notify_pack:
        return [plan, block, epoch](int thread, int threads) {
          for_my_sends(plan, thread, threads,
                       [&](std::uint32_t m) { (void)pack_block(block, plan, m, epoch); });
        };
      case KernelOp::notify_unpack:
        return [plan, block, epoch](int thread, int threads) {
          bool failed = false;
          for_my_blocks(plan.recv_count, thread, threads, [&](std::uint32_t r) {
            if (!failed) {
              failed = unpack_receive(block, plan, {r, 0}, epoch, r) != BlockStatus::ok;
            }
          });
        };
      // The piece-moving programs in the build the GPU runs (LinesCode), so that CI runs both.
      case KernelOp::stacked:
        return in_lines_build(plan, [&](auto build) {
          constexpr LinesCode lines = decltype(build)::value;
          return one_block_per_thread_job<stacked_exchange<lines, HostThreadGroup>>(plan, block,
                                                                                    epoch);
        });
      case KernelOp::resident_pack:
        return resident_pack_job(plan, block, epoch, generation);
      case KernelOp::resident_unpack:
        return resident_unpack_job(plan, block, epoch, generation);
      // Thread t is node block t of the lane's threads: all its send pieces, then its receive
      // pieces, so no thread waits for a piece that it would itself move later.
      case KernelOp::piece_grid:
        return in_lines_build(plan, [&](auto build) {
          constexpr LinesCode lines = decltype(build)::value;
          return one_block_per_thread_job<piece_grid_exchange<lines, HostThreadGroup>>(plan, block,
                                                                                       epoch);
        });
      case KernelOp::resident_piece_grid:
        return in_lines_build(plan, [&](auto build) {
          return resident_piece_grid_job<decltype(build)::value>(plan, block, epoch, generation);
        });
    }
    throw KernelError("unknown kernel op");
  }

  ExchangePlan plan_;
  HostLane pack_lane_;
  HostLane unpack_lane_;
  HostLane pieces_lane_;
};

}  // namespace

std::unique_ptr<KernelRunner> make_host_kernel_runner(const ExchangePlan& plan,
                                                      const LaunchSettings& settings) {
  return std::make_unique<HostKernelRunner>(plan, settings);
}

}  // namespace haloflag::kernels::detail
