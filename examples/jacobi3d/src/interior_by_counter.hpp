// The resident kernel's interior shared out by a counter. Dealt out by block index, every block
// sweeps an equal share, so a block that starts its interior late (it moved send pieces first,
// or updated the boundary cells they hold) ends the iteration late, and the whole grid waits for
// it at the next barrier. Here each block first sweeps column runs dealt out by its index, as
// before, then takes the last ones from a counter until none are left: blocks that start late
// take fewer. The cells and their values are the same; only who updates them changes.
#pragma once

#include <atomic>
#include <cstdint>

#include "box_sweep.hpp"
#include "haloflag/kernels/box.hpp"
#include "haloflag/notify/portability.hpp"
#include "staged_run.hpp"

namespace jacobi3d {

// A word in device memory (host memory on the host backend), zero when a launch starts, and
// where this launch's next sweep starts counting: each sweep moves `first` on by what it took,
// so the word needs no reset between iterations (reset_interior_counter ends the launch).
struct InteriorCounter {
  std::uint64_t* word;
  std::uint64_t first;
};

// Adds one to the word and returns the value before. Relaxed: a take names cells only, whose
// inputs the last grid barrier ordered; it publishes nothing.
HF_HD inline std::uint64_t take_one(std::uint64_t* word) {
#if HF_DEVICE_CODE
  return atomicAdd(reinterpret_cast<unsigned long long*>(word), 1ull);
#else
  return std::atomic_ref<std::uint64_t>(*word).fetch_add(1, std::memory_order_relaxed);
#endif
}

// Zero for the next launch. Called by one member after the launch's last grid barrier, when no
// take of this launch is left.
HF_HD inline void reset_interior_counter(std::uint64_t* word) {
#if HF_DEVICE_CODE
  *word = 0;
#else
  std::atomic_ref<std::uint64_t>(*word).store(0, std::memory_order_relaxed);
#endif
}

// Rounds of takes (a take per block) left to the counter at the end of a sweep. A block's warps
// wait for one another at every take from it, so the earlier rounds are dealt out by block
// index, with no such wait; two rounds are enough to even out what the sends leave (at 256^3
// per rank on an H200, about one and a half).
inline constexpr std::uint32_t kRoundsTaken = 2;

// Every cell of `box`, by the blocks of a grid of `blocks`. A take is one column run for each
// group of kTileCells threads in the block (with kStaged, a CUDA block of exactly kTileCells
// threads walks its run through shared memory where staged_walk_pays), or, in blocks of other
// sizes (the host team's
// blocks of one thread), one run that the block sweeps cell by cell. Each block sweeps its own
// takes (its index, then a round of blocks on) of all but the last kRoundsTaken whole rounds,
// then takes the others from the counter, whose next value its thread 0 asks for while the
// block sweeps its current take, so that the answer's trip hides behind it. Each block stops at
// its first take past the end, so the counter moves by the takes it dealt plus one a block; a
// sweep of no more takes than blocks is dealt out alone and leaves it be.
template <bool kStaged = false, class Real, class Block>
HF_HD inline void sweep_interior_by_counter(StencilKind kind, const SweepFields<Real>& fields,
                                            const haloflag::kernels::Box& box, const Block& block,
                                            std::uint32_t block_index, std::uint32_t blocks,
                                            InteriorCounter& counter) {
  const auto threads = static_cast<std::uint32_t>(block.size());
  const auto thread = static_cast<std::uint32_t>(block.thread());
  const std::uint32_t groups = threads % kTileCells == 0 ? threads / kTileCells : 1;
#if defined(__CUDA_ARCH__)
  // A tile a block, walked through shared memory (staged_run.hpp), in the kernel built for it.
  ColumnRuns runs = kStaged ? staged_runs(box, blocks, threads) : ColumnRuns{0, 0, 0, 0};
  const bool staged = runs.run != 0;
  if (!staged) runs = column_runs(box, blocks * groups);
#else
  const ColumnRuns runs = column_runs(box, blocks * groups);
#endif
  const std::uint32_t takes = (runs.count() + groups - 1) / groups;
  const auto sweep_take = [&](std::uint32_t take) {
    if (threads % kTileCells == 0) {
      const std::uint32_t item = take * groups + thread / kTileCells;
#if defined(__CUDA_ARCH__)
      if (staged) {
        if (item < runs.count()) update_run_staged(kind, fields, box, runs, item, thread);
        return;
      }
#endif
      if (item < runs.count()) update_run_lane(kind, fields, box, runs, item, thread % kTileCells);
    } else {
      sweep_box(kind, fields, run_box(box, runs, take), thread, threads);
    }
  };
  if (takes <= blocks) {  // one round: the deal is even, and there is nothing to take
    if (block_index < takes) sweep_take(block_index);
    return;
  }
  const std::uint32_t rounds = takes / blocks;
  const std::uint32_t own_rounds = rounds > kRoundsTaken ? rounds - kRoundsTaken : 1;
  const std::uint32_t first_taken = own_rounds * blocks;  // the counter's first take
  std::uint32_t take = block_index;
  for (std::uint32_t round = 1; round < own_rounds; ++round, take += blocks) sweep_take(take);
  for (;;) {  // `take` is the block's last own take, then each one from the counter
    std::uint64_t next = 0;
    if (thread == 0) next = take_one(counter.word);
    sweep_take(take);
    take = first_taken + static_cast<std::uint32_t>(
                             block.from_leader(static_cast<int>(next - counter.first)));
    if (take >= takes) break;
  }
  counter.first += takes - first_taken + blocks;
}

// The first blocks of a grid of `blocks` blocks of `threads` that the interior's sweep leaves
// out: the `send_blocks` that move the exchange's send pieces (embedded_send_blocks), which come
// back from the start last, where the other blocks take every column run in one round of the
// register walk's cut and are half the grid or more; else none. The others then sweep as a
// grid of their own (sweep_interior in resident_iterations.hpp). Host code decides it once a
// run; it names blocks only, so the cells and their values stay the same either way.
HF_HD inline std::uint32_t spared_send_blocks(const haloflag::kernels::Box& box,
                                              std::uint32_t blocks, std::uint32_t threads,
                                              std::uint32_t send_blocks) {
  if (send_blocks == 0 || 2 * send_blocks > blocks) return 0;
  const std::uint32_t others = blocks - send_blocks;
  const std::uint32_t groups = threads % kTileCells == 0 ? threads / kTileCells : 1;
  const std::uint32_t takes = (column_runs(box, others * groups).count() + groups - 1) / groups;
  return takes <= others ? send_blocks : 0;
}

}  // namespace jacobi3d
