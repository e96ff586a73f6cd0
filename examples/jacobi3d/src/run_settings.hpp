// How a variant runs: on which backend, with which deadline and launch shapes.
#pragma once

#include <mpi.h>

#include <chrono>
#include <optional>

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
  // Blocks of the resident cooperative grid; 0: as many as the occupancy API says fit at once
  // (per multiprocessor, the fewer of the kernel's two forms, times the multiprocessors),
  // shared among the ranks bound to the same GPU.
  int resident_blocks = 0;
  // Ranks bound to this rank's GPU (halo::GpuBinding::sharers), whose resident grids must fit on
  // it together.
  int gpu_sharers = 1;
  int host_team_threads = 2; // host backend: CPU threads that play the resident grid
  // The exchange strategy of the conventional variants (comb_fused or comb_graph); unset: the
  // conventional loop's comb_fused and the overlapped loop's comb_graph (its kernels replayed as
  // graphs: the best conventional loop, with graphs where they help).
  std::optional<haloflag::halo::Strategy> conventional_strategy;
  // The exchanges' transport (docs/transports.md).
  haloflag::halo::Transport transport = haloflag::halo::Transport::automatic;
  std::int64_t node_lines_up_to_bytes = haloflag::halo::kDefaultNodeLinesUpToBytes;
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
  options.advanced.node_lines_up_to_bytes = settings.node_lines_up_to_bytes;
  return options;
}

}  // namespace jacobi3d
