// sweep_interior_by_counter (interior_by_counter.hpp) with blocks that really run at once: each
// block a team of CPU threads (HostTeamGroup: its barrier and from_leader are the block's), the
// blocks taking column runs from one counter. Whatever order they take them in, every interior
// cell is written once per sweep and nothing else is, a late block takes fewer runs, and the
// counter moves by exactly the takes of a sweep, so that sweeps follow one another with no reset.
#include <gtest/gtest.h>

#include <array>
#include <barrier>
#include <chrono>
#include <cstdint>
#include <deque>
#include <string>
#include <thread>
#include <vector>

#include "haloflag/halo/index3.hpp"
#include "haloflag/kernels/host_groups.hpp"
#include "counted_cell.hpp"
#include "interior_by_counter.hpp"
#include "sweep_regions.hpp"

namespace {

using namespace jacobi3d;
using haloflag::halo::Index3;
using haloflag::kernels::HostTeamGroup;

using counted_cell::Counted;

struct Sweeps {
  std::vector<int> writes;     // per cell of the field, over every sweep
  std::vector<int> last_cells;  // per block: the cells it wrote in the last sweep
  std::uint64_t word = 0;      // the counter after the sweeps
  std::uint64_t first = 0;     // where the next sweep would count from
};

// `sweeps` sweeps of the interior of `owned` by `blocks` blocks of `threads` threads; block 0
// starts each sweep `late` after the others.
Sweeps sweep_with_counter(const Index3& owned, int blocks, int threads, int sweeps,
                          std::chrono::milliseconds late) {
  const Index3 field{owned[0] + 2, owned[1] + 2, owned[2] + 2};
  const SweepRegions regions = sweep_regions(owned, 1);
  std::vector<Counted> in(static_cast<std::size_t>(field[0] * field[1] * field[2]));
  std::vector<Counted> out(in.size());
  const SweepFields<Counted> fields{in.data(), out.data(), field[0], field[0] * field[1]};
  Sweeps result;
  result.last_cells.assign(static_cast<std::size_t>(blocks), 0);
  std::deque<std::barrier<>> barriers;  // not movable: a deque builds them in place
  for (int b = 0; b < blocks; ++b) barriers.emplace_back(threads);
  std::vector<std::array<int, 2>> slots(static_cast<std::size_t>(blocks), {0, 0});
  std::barrier<> grid(blocks * threads);
  std::vector<std::uint64_t> firsts(static_cast<std::size_t>(blocks * threads), 0);
  {
    std::vector<std::jthread> members;
    for (int b = 0; b < blocks; ++b) {
      for (int t = 0; t < threads; ++t) {
        members.emplace_back([&, b, t] {
          const HostTeamGroup block{&barriers[static_cast<std::size_t>(b)],
                                    &slots[static_cast<std::size_t>(b)], t, threads};
          counted_cell::writing_block = b;
          InteriorCounter counter{&result.word, 0};
          for (int s = 0; s < sweeps; ++s) {
            if (b == 0) std::this_thread::sleep_for(late);
            sweep_interior_by_counter(StencilKind::seven_point, fields, regions.interior, block,
                                      static_cast<std::uint32_t>(b),
                                      static_cast<std::uint32_t>(blocks), counter);
            grid.arrive_and_wait();  // the resident kernel's barrier between iterations
          }
          firsts[static_cast<std::size_t>(b * threads + t)] = counter.first;
        });
      }
    }
  }
  result.first = firsts[0];
  for (const std::uint64_t first : firsts) EXPECT_EQ(first, result.first);
  for (const Counted& cell : out) {
    result.writes.push_back(cell.writes);
    if (cell.writer >= 0) ++result.last_cells[static_cast<std::size_t>(cell.writer)];
  }
  return result;
}

// Each owned interior cell written `sweeps` times, every other cell never.
void expect_interior_once_per_sweep(const Sweeps& result, const Index3& owned, int sweeps,
                                    const std::string& what) {
  const Index3 field{owned[0] + 2, owned[1] + 2, owned[2] + 2};
  for (std::int64_t z = 0; z < field[2]; ++z) {
    for (std::int64_t y = 0; y < field[1]; ++y) {
      for (std::int64_t x = 0; x < field[0]; ++x) {
        const bool interior = x >= 2 && x < owned[0] && y >= 2 && y < owned[1] && z >= 2 &&
                              z < owned[2];
        ASSERT_EQ(result.writes[static_cast<std::size_t>((z * field[1] + y) * field[0] + x)],
                  interior ? sweeps : 0)
            << what << ", cell " << x << "," << y << "," << z;
      }
    }
  }
}

TEST(InteriorByCounter, EveryInteriorCellOncePerSweepWhoeverTakesIt) {
  struct Case {
    Index3 owned;
    int blocks;
    int threads;  // 1: the host team's blocks, cell by cell; 256 and 512: a GPU's, in tiles
    bool taken;   // more runs than blocks: the counter deals them
  };
  for (const Case& c : {Case{{70, 20, 12}, 3, 1, true}, Case{{72, 21, 22}, 2, 256, true},
                        Case{{40, 20, 30}, 2, 512, true}, Case{{5, 4, 3}, 4, 1, false}}) {
    const std::string what = std::to_string(c.owned[0]) + "x" + std::to_string(c.owned[1]) +
                             "x" + std::to_string(c.owned[2]) + ", " + std::to_string(c.blocks) +
                             " blocks of " + std::to_string(c.threads);
    const Sweeps result = sweep_with_counter(c.owned, c.blocks, c.threads, 3,
                                             std::chrono::milliseconds(0));
    expect_interior_once_per_sweep(result, c.owned, 3, what);
    // The word holds what the sweeps took, which every member counted alike.
    EXPECT_EQ(result.word, result.first) << what;
    EXPECT_EQ(result.word > 0, c.taken) << what;
  }
}

// A block that starts each sweep long after the others sweeps only the runs dealt to it (all but
// the last kRoundsTaken rounds, at least one): the others have taken every run past those.
TEST(InteriorByCounter, ALateBlockSweepsTheRunsDealtToItOnly) {
  const int blocks = 3;
  for (const Index3 owned : {Index3{70, 20, 12}, Index3{200, 40, 12}}) {
    const std::string what = std::to_string(owned[0]) + "x" + std::to_string(owned[1]);
    const Sweeps result = sweep_with_counter(owned, blocks, 1, 2, std::chrono::milliseconds(50));
    expect_interior_once_per_sweep(result, owned, 2, what);
    const haloflag::kernels::Box interior = sweep_regions(owned, 1).interior;
    const ColumnRuns runs = column_runs(interior, blocks);
    const std::uint32_t rounds = runs.count() / blocks;
    ASSERT_GE(rounds, 3u) << what << ": too few runs for the others to take many";
    const std::uint32_t own_rounds = rounds > kRoundsTaken ? rounds - kRoundsTaken : 1;
    std::int64_t dealt = 0;
    for (std::uint32_t round = 0; round < own_rounds; ++round) {
      dealt += run_box(interior, runs, round * blocks).cells();
    }
    EXPECT_EQ(result.last_cells[0], dealt) << what;
    EXPECT_EQ(result.last_cells[0] + result.last_cells[1] + result.last_cells[2],
              interior.cells())
        << what;
    // Per sweep: the runs past the dealt rounds, and the take past the end of each block.
    EXPECT_EQ(result.word, 2u * (runs.count() - own_rounds * blocks + blocks)) << what;
  }
}

// spared_send_blocks: the send blocks are left out where the others take every column run in
// one round and are half the grid or more. 32^3 per rank on one H200 (a 30^3 interior: 4 tiles
// of 30 planes) on 128 blocks of 256 threads, 24 of them sending: the other 104 take 60 runs of
// 2 planes. 256^3 (254^3: 256 tiles) on 528 blocks takes several rounds; 70 senders of 128 are
// over half.
TEST(SparedSendBlocks, OnlyWhereTheOthersTakeTheInteriorInOneRound) {
  const haloflag::kernels::Box small{{1, 1, 1}, {30, 30, 30}};
  EXPECT_EQ(column_runs(small, 104).count(), 60u);
  EXPECT_EQ(spared_send_blocks(small, 128, 256, 24), 24u);
  EXPECT_EQ(spared_send_blocks(small, 128, 256, 0), 0u);
  EXPECT_EQ(spared_send_blocks(small, 128, 256, 70), 0u);
  const haloflag::kernels::Box large{{1, 1, 1}, {254, 254, 254}};
  EXPECT_EQ(spared_send_blocks(large, 528, 256, 32), 0u);
  // Blocks of one thread (the host team): a run a take.
  const haloflag::kernels::Box tiny{{1, 1, 1}, {14, 10, 6}};
  EXPECT_EQ(spared_send_blocks(tiny, 12, 1, 6), 6u);
  EXPECT_EQ(spared_send_blocks(tiny, 12, 1, 7), 0u);
}

}  // namespace
