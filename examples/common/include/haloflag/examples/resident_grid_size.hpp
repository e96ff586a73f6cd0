// The default size of a stencil example's resident cooperative grid, from the rank's cells: plain
// C++, so that the rule is tested on a machine without a GPU (CooperativeGrid applies it).
#pragma once

#include <algorithm>
#include <cstdint>

namespace haloflag::examples {

// The cells per thread the default grid aims at. The sweeps are memory-bound and want threads
// enough to keep the memory busy, but every block also lengthens each grid barrier, and below
// this share the barriers cost more than the threads save (examples/common/README.md, "The
// resident grid's size").
inline constexpr std::int64_t kResidentCellsPerThread = 32;

// What the GPU holds at once for this rank's grid.
struct ResidentGridRoom {
  int multiprocessors = 0;
  int blocks_per_multiprocessor = 0;  // the occupancy API's, for the kernel and block size
  int sharers = 1;                    // ranks whose grids share the GPU (under MPS)

  // The blocks that fit at once: this rank's share.
  constexpr std::int64_t fit() const {
    return std::int64_t{blocks_per_multiprocessor} * multiprocessors / std::max(sharers, 1);
  }
};

// Whole rounds of one block per multiprocessor (this rank's share of them) until each of
// `threads` per block has at most kResidentCellsPerThread of the `cells` one sweep of a step
// updates; no more than fit, and no more than the cells fill at one per thread (a block with no
// cell only lengthens every barrier). At least one block.
constexpr int default_resident_blocks(const ResidentGridRoom& room, int threads,
                                      std::int64_t cells) {
  const std::int64_t per_block = std::max(threads, 1);
  const std::int64_t filled = std::max<std::int64_t>((cells + per_block - 1) / per_block, 1);
  const std::int64_t round =
      std::max<std::int64_t>(room.multiprocessors / std::max(room.sharers, 1), 1);
  const std::int64_t share = per_block * kResidentCellsPerThread;
  const std::int64_t wanted = (cells + share - 1) / share;
  const std::int64_t rounds = std::max<std::int64_t>((wanted + round - 1) / round, 1);
  return static_cast<int>(
      std::max<std::int64_t>(std::min({rounds * round, room.fit(), filled}), 1));
}

}  // namespace haloflag::examples
