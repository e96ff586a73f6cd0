/// @file
/// The peer rule of reduced configs: N ranks (2, 4 or 8) each replay one source rank's messages,
/// and the message in direction d goes to a peer chosen by d's pattern of nonzero axes.
///
/// Ranks 0..N-1 are read as bit vectors. Direction d = (dx,dy,dz) has the pattern
/// p = (dx != 0, dy != 0, dz != 0), and its peer is rank XOR mask(p), where
///   N = 2: mask = 1                      (the other rank, in every direction)
///   N = 4: bit 0 = px OR pz, bit 1 = py  (3 peers)
///   N = 8: mask = p, x in bit 0          (7 peers: a periodic 2x2x2 rank grid)
/// The mask is never zero, so no rank sends to itself, and it depends on the pattern alone, so d
/// and -d have the same peer: the peer's send in direction -d is the receive from direction d,
/// and the direction tags stay unique per (sender, receiver) pair.
#pragma once

#include "haloflag/halo/direction.hpp"

namespace haloflag::halo {

/// The rank counts a config can be reduced to.
constexpr bool is_reduced_rank_count(int ranks) { return ranks == 2 || ranks == 4 || ranks == 8; }

/// The XOR mask of direction d on `ranks` ranks (one of is_reduced_rank_count); 0 for d = 0.
constexpr int reduced_peer_mask(int ranks, Direction d) {
  const int px = d.dx != 0 ? 1 : 0;
  const int py = d.dy != 0 ? 1 : 0;
  const int pz = d.dz != 0 ? 1 : 0;
  if (px + py + pz == 0) return 0;
  switch (ranks) {
    case 2: return 1;
    case 4: return (px | pz) | (py << 1);
    default: return px | (py << 1) | (pz << 2);
  }
}

/// The rank that sends `rank` its ghosts on side d, and to which `rank` sends in direction d.
constexpr int reduced_peer(int rank, int ranks, Direction d) {
  return rank ^ reduced_peer_mask(ranks, d);
}

}  // namespace haloflag::halo
