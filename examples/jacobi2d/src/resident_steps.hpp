// The resident kernel's body, written once over a block group and a grid group so that a GPU
// cooperative grid and the host backend's team of CPU threads run the same code.
//
// Per iteration i (exchange epoch first_epoch + i):
//   1. the grid updates the first and last row (they read the ghost rows the last iteration
//      unpacked);  grid barrier
//   2. the grid starts the exchange of those rows, split over every block (peers over MPI are
//      driven by the host beside the kernel: Exchange::started_on_device).
//      With kSendsUpdate (ResidentLaunch::sends_update_cells) step 1 and its barrier go: each
//      block updates the cells of the rows it sends just before it moves them, and adds their
//      changes to its norm sum; every cell of those rows is in exactly one send
//   3. the grid updates the interior rows while the rows fly, dealt away from the blocks that
//      move the send pieces where the others can take it in one round, else with the members
//      left without an item on the grid's last block and then its first (interior_deal.hpp);
//      on a norm check every member's sum of squared changes goes into the check's accumulator
//   4. the grid finishes the exchange into the ghost rows of the field just written
//   5. grid barrier (which also tells every block whether a block's wait failed: then all
//      return);
//      on a check, one thread publishes the accumulator to the host (norm_slots.hpp)
// Two accumulators alternate: the grid's last block empties check k's after the barrier of
// step 5, and check k + 2 cannot add to it before the next iteration's step 5, which waits for
// that block. The last block publishes because the node pieces go to the grid's first blocks
// (a check's publish held block 0, which moves a piece, back about half a microsecond at
// 1024^2), and it is the first to go without an interior item.
#pragma once

#include <cstddef>
#include <cstdint>

#include "haloflag/kernels/embedded_api.hpp"
#include "haloflag/kernels/embedded_exchange.hpp"
#include "haloflag/notify/portability.hpp"
#include "interior_deal.hpp"
#include "norm_accumulator.hpp"
#include "resident_launch.hpp"
#include "row_sweep.hpp"

namespace jacobi2d {

// Step 2; with kSendsUpdate its sends update the cells they send first (the plan's fields are
// the field `step` writes), adding their changes to `sum` on a norm check.
template <haloflag::kernels::LinesCode kLines, bool kSendsUpdate, class Real, class Block>
HF_HD HF_FORCEINLINE haloflag::kernels::BlockStatus start_exchange(
    const Block& block, const haloflag::kernels::DevicePlan& plan, std::uint32_t block_index,
    std::uint32_t blocks, std::uint64_t epoch, const PlaneStep<Real>& step, bool check,
    double& sum) {
  namespace hk = haloflag::kernels;
  if constexpr (kSendsUpdate) {
    const auto update = [&](std::uint32_t /*variable*/, std::byte* cell) {
      return update_cell(step, reinterpret_cast<Real*>(cell) - step.out, check, sum);
    };
    return hk::embedded_exchange_start<kLines>(block, plan, block_index, blocks, epoch, update);
  } else {
    (void)step;
    (void)check;
    (void)sum;
    return hk::embedded_exchange_start<kLines>(block, plan, block_index, blocks, epoch);
  }
}

// Returns false when the run stopped on a failed wait (the host's exchange reports which).
// NormAdd adds a member's sum to an accumulator; every member of the grid calls it at the same
// point.
// kLines: the embedded API's build, with the node transport's lines or without (fewer registers);
// kSendsUpdate: step 1 inside the start (the launch's exchange on). Compile-time choices, so that
// a GPU kernel holds the registers of one form only.
// Always inlined: called, it would take the kernel's launch by reference, and the kernel would
// copy the launch into every thread's stack first.
template <haloflag::kernels::LinesCode kLines, bool kSendsUpdate, class Real, class Block,
          class Grid, class NormAdd>
HF_HD HF_FORCEINLINE bool resident_steps(const Block& block, const Grid& grid,
                                         std::uint32_t block_index, std::uint32_t blocks,
                                         const ResidentLaunch<Real>& launch,
                                         const NormAdd& add_to_norm) {
  namespace hk = haloflag::kernels;
  const RowSet boundary = boundary_rows(launch.rows);
  const RowSet interior = interior_rows(launch.rows);
  const bool sends_update = kSendsUpdate && launch.exchange;
  for (int i = 0; i < launch.iterations; ++i) {
    const int in = (launch.first_in + i) & 1;
    const PlaneStep<Real> step{launch.planes[in], launch.planes[in ^ 1], launch.nx};
    const hk::DevicePlan& plan = launch.plans[in ^ 1];
    const std::uint64_t epoch = launch.first_epoch + static_cast<std::uint64_t>(i);
    const bool check = i % launch.nccheck == 0;
    const auto k = static_cast<std::uint64_t>(i / launch.nccheck);
    double* norm = &launch.norms[k & 1];

    double sum = 0.0;
    if (!sends_update) {
      sum = sweep_rows(step, boundary, grid.thread(), grid.size(), check);
      grid.sync();  // the boundary rows are written before any block packs them
    }

    // A block whose wait failed skips its remaining waits; the barrier below still meets every
    // block, and embedded_barrier() then sends all of them home together.
    bool failed = false;
    if (launch.exchange) {
      failed = start_exchange<kLines, kSendsUpdate>(block, plan, block_index, blocks, epoch, step,
                                                    check, sum) != hk::BlockStatus::ok;
    }
    const std::int64_t place = dealt_member(grid.thread(), grid.size(), launch.interior.turn);
    sum += sweep_rows(step, interior, place, launch.interior.members, check);
    if (check) add_to_norm(norm, sum);
    if (launch.exchange) {
      if (!failed) {
        // The next iteration's exchange goes into the field read now, whose ghost rows only the
        // boundary rows read, before this exchange's start: its peers may place it there at once.
        const hk::NextExchange next = launch.tell_next && i + 1 < launch.iterations
                                          ? hk::next_exchange_on(launch.plans[in])
                                          : hk::NextExchange{};
        failed = hk::embedded_exchange_finish<kLines>(block, plan, block_index, blocks, epoch,
                                                      next) != hk::BlockStatus::ok;
      }
      const hk::BlockStatus status = failed ? hk::BlockStatus::failed : hk::BlockStatus::ok;
      // A grid barrier: the ghosts are complete.
      if (hk::embedded_barrier(grid, plan, epoch, status) != hk::BlockStatus::ok) return false;
    } else {
      grid.sync();
    }
    if (check && block_index + 1 == blocks && block.thread() == 0) {
      publish_norm(launch.slots, k, take_norm(norm));
    }
  }
  return true;
}

// resident_steps() in the build its plans need, as a member of the host backend's team runs it
// (haloflag/examples/host_resident_kernel.hpp), adding its norm with a host atomic.
struct HostResidentSteps {
  template <class Real, class Block, class Grid>
  bool operator()(const Block& block, const Grid& grid, std::uint32_t block_index,
                  std::uint32_t blocks, const ResidentLaunch<Real>& launch) const {
    namespace hk = haloflag::kernels;
    return hk::with_embedded_lines_build(launch.plans[0], [&](auto build) {
      constexpr hk::LinesCode kLines = decltype(build)::value;
      // As the GPU kernels are built (gpu_jacobi2d.cu): sends that update rows without lines only.
      if (kLines == hk::LinesCode::absent && launch.sends_update_cells) {
        return resident_steps<kLines, true>(block, grid, block_index, blocks, launch,
                                            HostNormAdd{});
      }
      return resident_steps<kLines, false>(block, grid, block_index, blocks, launch,
                                           HostNormAdd{});
    });
  }
};

}  // namespace jacobi2d
