// The resident kernel's body, written once over a block group and a grid group so that a GPU
// cooperative grid and the host backend's team of CPU threads run the same code.
//
// Per iteration (the epoch of iteration i is first_epoch + i):
//   1. the grid updates the boundary layer (it reads the ghost cells the last iteration
//      unpacked);  grid barrier
//   2. the grid starts the exchange itself, split by pieces over every block
//      (embedded_exchange_start; MPI messages whole, one block each, which the host's
//      finish() posts as soon as their flags are up); or, in the per-message form, each send
//      message is packed and signalled by one block (round robin over blocks).
//      With kSendsUpdate (ResidentLaunch::sends_update_cells) step 1 and its barrier go: the
//      start updates each boundary cell just before its piece moves it, and every boundary
//      cell is in some send
//   3. the grid updates the interior while the messages fly: each block the column runs dealt
//      to it, then, with ResidentLaunch::interior_counter, the last rounds' taken from the
//      counter (interior_by_counter.hpp) so that the blocks that sent pieces take fewer; where
//      the other blocks take it in one round, the sending blocks take none
//      (ResidentLaunch::spared_blocks)
//   4. the grid finishes the exchange (embedded_exchange_finish), or each receive message is
//      awaited and unpacked by one block (round robin) into the ghost cells of the buffer just
//      written
//   5. grid barrier, which also tells every block whether any wait failed: then all return
//   6. the buffers swap roles
// With ResidentLaunch::updates_only, steps 2 and 4 are left out and the barrier of step 5 is a
// plain grid barrier: the update as this kernel does it, for the update-rate report.
#pragma once

#include <cstddef>
#include <cstdint>

#include "box_sweep.hpp"
#include "haloflag/kernels/embedded_api.hpp"
#include "haloflag/kernels/embedded_exchange.hpp"
#include "haloflag/notify/portability.hpp"
#include "interior_by_counter.hpp"
#include "resident_launch.hpp"

namespace jacobi3d {

// Step 2 of the whole exchange; with kSendsUpdate its sends update the cells they send first
// (the plan's fields are the buffer `fields` writes).
template <haloflag::kernels::LinesCode kLines, bool kSendsUpdate, class Real, class Block>
HF_HD HF_FORCEINLINE haloflag::kernels::BlockStatus start_exchange(
    const Block& block, const haloflag::kernels::DevicePlan& plan, std::uint32_t block_index,
    std::uint32_t blocks, std::uint64_t epoch, StencilKind stencil,
    const SweepFields<Real>& fields) {
  namespace hk = haloflag::kernels;
  if constexpr (kSendsUpdate) {
    const auto update = [&](std::uint32_t /*variable*/, std::byte* cell) {
      return update_cell(stencil, fields, reinterpret_cast<Real*>(cell) - fields.out);
    };
    return hk::embedded_exchange_start<kLines>(block, plan, block_index, blocks, epoch, update);
  } else {
    (void)stencil;
    (void)fields;
    return hk::embedded_exchange_start<kLines>(block, plan, block_index, blocks, epoch);
  }
}

// Step 3: the interior, shared out by the counter where the launch has one, else dealt out by
// grid thread; with kStaged, the counter's runs walked through shared memory where they are long
// (interior_by_counter.hpp). The launch's spared blocks, the first, sweep nothing: the others
// share the interior out as a grid of their own.
template <bool kStaged, class Real, class Block, class Grid>
HF_HD HF_FORCEINLINE void sweep_interior(const Block& block, const Grid& grid,
                                         std::uint32_t block_index, std::uint32_t blocks,
                                         const ResidentLaunch<Real>& launch,
                                         const SweepFields<Real>& fields,
                                         InteriorCounter& counter) {
  if (counter.word != nullptr) {
    const std::uint32_t spared = launch.spared_blocks;
    if (block_index < spared) return;
    sweep_interior_by_counter<kStaged>(launch.stencil, fields, launch.regions.interior, block,
                                       block_index - spared, blocks - spared, counter);
  } else {
    sweep_box_in_tiles(launch.stencil, fields, launch.regions.interior, grid.thread(),
                       grid.size());
  }
}

// Returns false when the run stopped on a failed wait (the host's exchange reports which).
// kWholeExchange: the form of step 2 and 4 (ResidentLaunch::whole_exchange), kLines: the
// embedded API's build (with the node transport's lines or without), and kSendsUpdate (whole
// exchange only): step 1 inside the start; compile-time choices so that a GPU kernel holds the
// registers of one form and one build only.
// Always inlined: called, it would take the kernel's launch by reference, and the kernel would
// copy the launch (kilobytes) into every thread's stack first.
template <bool kWholeExchange, haloflag::kernels::LinesCode kLines, bool kSendsUpdate,
          bool kStaged = false, class Real, class Block, class Grid>
HF_HD HF_FORCEINLINE bool resident_iterations(const Block& block, const Grid& grid,
                                              std::uint32_t block_index, std::uint32_t blocks,
                                              const ResidentLaunch<Real>& launch) {
  namespace hk = haloflag::kernels;
  InteriorCounter counter{launch.interior_counter, 0};
  bool completed = true;
  for (int i = 0; i < launch.iterations; ++i) {
    const int in = (launch.first_in + i) & 1;
    const int out = in ^ 1;
    const SweepFields<Real> fields{launch.buffers[in], launch.buffers[out], launch.stride_y,
                             launch.stride_z};
    const hk::DevicePlan& plan = launch.plans[out];
    const std::uint64_t epoch = launch.first_epoch + static_cast<std::uint64_t>(i);

    if (!kSendsUpdate || launch.updates_only) {
      sweep_boxes(launch.stencil, fields, launch.regions.boundary.boxes,
                  launch.regions.boundary.count, grid.thread(), grid.size());
      grid.sync();  // the boundary layer is written before any block packs it
    }

    if (launch.updates_only) {
      sweep_interior<kStaged>(block, grid, block_index, blocks, launch, fields, counter);
      grid.sync();  // this step's cells are written before the next step reads them
      continue;
    }

    // A block whose wait failed skips its remaining waits; the barrier below still meets every
    // block, and embedded_barrier() then sends all of them home together.
    bool failed = false;
    if constexpr (kWholeExchange) {
      failed = start_exchange<kLines, kSendsUpdate>(block, plan, block_index, blocks, epoch,
                                                    launch.stencil, fields) != hk::BlockStatus::ok;
      sweep_interior<kStaged>(block, grid, block_index, blocks, launch, fields, counter);
      if (!failed) {
        // The next iteration's exchange goes into the buffer read now, whose ghost cells no
        // sweep reads before it completes: its peers may place it there at once.
        const hk::NextExchange next = launch.tell_next && i + 1 < launch.iterations
                                          ? hk::next_exchange_on(launch.plans[in])
                                          : hk::NextExchange{};
        failed = hk::embedded_exchange_finish<kLines>(block, plan, block_index, blocks, epoch,
                                                      next) != hk::BlockStatus::ok;
      }
    } else {
      for (std::uint32_t m = block_index; m < plan.send_count() && !failed; m += blocks) {
        failed = hk::embedded_pack(block, plan, m, epoch) != hk::BlockStatus::ok;
      }
      sweep_interior<kStaged>(block, grid, block_index, blocks, launch, fields, counter);
      for (std::uint32_t r = block_index; r < plan.recv_count() && !failed; r += blocks) {
        failed = hk::embedded_unpack(block, plan, r, epoch) != hk::BlockStatus::ok;
      }
    }
    const hk::BlockStatus status = failed ? hk::BlockStatus::failed : hk::BlockStatus::ok;
    if (hk::embedded_barrier(grid, plan, epoch, status) != hk::BlockStatus::ok) {  // ghosts in
      completed = false;
      break;
    }
  }
  // Every block has passed the last grid barrier, so no take of this launch is left.
  if (counter.word != nullptr && grid.thread() == 0) reset_interior_counter(counter.word);
  return completed;
}

// resident_iterations() of the launch's form and of the build its plans need, as a member of the
// host backend's team runs it (haloflag/examples/host_resident_kernel.hpp).
struct HostResidentIterations {
  template <class Real, class Block, class Grid>
  bool operator()(const Block& block, const Grid& grid, std::uint32_t block_index,
                  std::uint32_t blocks, const ResidentLaunch<Real>& launch) const {
    namespace hk = haloflag::kernels;
    if (!launch.whole_exchange) {
      return resident_iterations<false, hk::LinesCode::present, false>(block, grid, block_index,
                                                                       blocks, launch);
    }
    return hk::with_embedded_lines_build(launch.plans[0], [&](auto build) {
      constexpr hk::LinesCode kLines = decltype(build)::value;
      // As the GPU kernels are built (resident_kernel_forms.hpp): sends that update cells without
      // lines only.
      if (kLines == hk::LinesCode::absent && launch.sends_update_cells) {
        return resident_iterations<true, kLines, true>(block, grid, block_index, blocks, launch);
      }
      return resident_iterations<true, kLines, false>(block, grid, block_index, blocks, launch);
    });
  }
};

}  // namespace jacobi3d
