// The node piece size that every rank of a stencil example's resident kernel uses: a message's
// pieces must agree at both ends, so each rank works out its own (resident_piece_size.hpp) and
// all take the largest.
#pragma once

#include <mpi.h>

#include "haloflag/halo/geometry.hpp"

namespace haloflag::examples {

// updating_piece_bytes for `rank`'s messages in `geometry`, a grid of `blocks` and, where the
// kernel's sends update their cells, pieces of `smallest_bytes` (one element a thread; 0: they
// don't); `default_bytes` where this rank has no grid (blocks 0: it fails after the set-up).
// The largest over `comm`'s ranks. Collective.
int agreed_piece_bytes(MPI_Comm comm, const halo::Geometry& geometry, int rank, int blocks,
                       int smallest_bytes, int default_bytes);

}  // namespace haloflag::examples
