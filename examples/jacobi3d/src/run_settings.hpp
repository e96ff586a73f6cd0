// How a variant runs: on which backend, with which deadline and launch shapes.
#pragma once

#include <mpi.h>

#include <chrono>

#include "haloflag/halo/exchange_options.hpp"
#include "haloflag/halo/progress.hpp"
#include "haloflag/halo/transport.hpp"
#include "haloflag/notify/backend.hpp"
#include "haloflag/notify/control_block.hpp"

namespace jacobi3d {

struct RunSettings {
  haloflag::notify::Backend backend = haloflag::notify::Backend::host;
  // Deadline of every wait of the exchanges and of the resident kernel's flag waits.
  std::chrono::nanoseconds timeout = haloflag::notify::kDefaultWaitTimeout;
  int gpu_threads = 256;     // threads per block of the update kernels
  int resident_blocks = 0;   // blocks of the resident cooperative grid; 0: one per multiprocessor
  int host_team_threads = 2; // host backend: CPU threads that play the resident grid
  // The exchanges' transport (docs/transports.md).
  haloflag::halo::Transport transport = haloflag::halo::Transport::automatic;
  // Who runs the MPI peers' side of the stream variant's exchange while its stream runs: the
  // exchange's progress thread (needs MPI_THREAD_MULTIPLE) or the run's own thread.
  haloflag::halo::Progress progress = haloflag::halo::Progress::thread;
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

}  // namespace jacobi3d
