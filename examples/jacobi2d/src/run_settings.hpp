// How a variant runs: on which backend, with which deadline, launch shapes and norm cadence.
#pragma once

#include <mpi.h>

#include <chrono>

#include "haloflag/halo/exchange_options.hpp"
#include "haloflag/halo/progress.hpp"
#include "haloflag/halo/transport.hpp"
#include "haloflag/notify/backend.hpp"
#include "haloflag/notify/control_block.hpp"

namespace jacobi2d {

struct RunSettings {
  haloflag::notify::Backend backend = haloflag::notify::Backend::host;
  // Deadline of every wait: the exchanges', the resident kernel's and the norms'.
  std::chrono::nanoseconds timeout = haloflag::notify::kDefaultWaitTimeout;
  int nccheck = 1;          // the norm every nccheck iterations
  int max_iterations = 1;   // the longest run (for the norms' slots)
  int gpu_threads = 256;    // threads per block of the GPU kernels
  int resident_blocks = 0;  // blocks of the resident grid; 0: as many as fit (occupancy API)
  // Ranks bound to this rank's GPU (halo::GpuBinding::sharers): under MPS their resident grids
  // wait on one another through the exchange, so they must all fit at once, each its share.
  int gpu_sharers = 1;
  int host_team_threads = 2;  // host backend: CPU threads that play the resident grid
  haloflag::halo::Transport transport = haloflag::halo::Transport::automatic;
  // Who runs the MPI peers' side of the stream variant's exchange while its stream runs.
  haloflag::halo::Progress progress = haloflag::halo::Progress::thread;
  // The conventional loop's exchange: comb_graph replays its pack and unpack kernels as graphs.
  haloflag::halo::Strategy conventional_strategy = haloflag::halo::Strategy::comb_graph;
};

// The options every variant's Exchange shares, for `strategy` over `comm`.
inline haloflag::halo::ExchangeOptions exchange_options(const RunSettings& settings,
                                                        MPI_Comm comm,
                                                        haloflag::halo::Strategy strategy) {
  haloflag::halo::ExchangeOptions options;
  options.strategy = strategy;
  options.backend = settings.backend;
  options.comm = comm;
  options.timeout = settings.timeout;
  options.transport = settings.transport;
  return options;
}

// This process's rank in `comm`.
inline int rank_of(MPI_Comm comm) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  return rank;
}

// Norm checks in a run of `iterations`: iterations i with i % nccheck == 0.
inline int norm_checks(int iterations, int nccheck) { return (iterations + nccheck - 1) / nccheck; }

}  // namespace jacobi2d
