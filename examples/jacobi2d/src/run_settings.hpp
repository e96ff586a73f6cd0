// How a variant runs: the examples' shared settings (backend, deadline, launch shapes, transport,
// progress: haloflag/examples/variant_settings.hpp), this example's norm cadence and the
// conventional loop's exchange.
#pragma once

#include <mpi.h>

#include "haloflag/examples/variant_settings.hpp"
#include "haloflag/halo/strategy.hpp"

namespace jacobi2d {

struct RunSettings : haloflag::examples::VariantSettings {
  int nccheck = 1;         // the norm every nccheck iterations
  int max_iterations = 1;  // the longest run (for the norms' slots)
  // The conventional loop's exchange: comb_graph replays its pack and unpack kernels as graphs.
  haloflag::halo::Strategy conventional_strategy = haloflag::halo::Strategy::comb_graph;
};

using haloflag::examples::exchange_options;

// This process's rank in `comm`.
inline int rank_of(MPI_Comm comm) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  return rank;
}

// Norm checks in a run of `iterations`: iterations i with i % nccheck == 0.
inline int norm_checks(int iterations, int nccheck) { return (iterations + nccheck - 1) / nccheck; }

}  // namespace jacobi2d
