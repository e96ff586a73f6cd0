// How any variant of a stencil example runs: on which backend, with which deadline, launch
// shapes, transport and progress. Each example's RunSettings adds what only it has (jacobi2d's
// norm cadence, jacobi3d's choice of conventional strategy).
#pragma once

#include <mpi.h>

#include <chrono>
#include <cstdint>
#include <optional>

#include "haloflag/halo/exchange_options.hpp"
#include "haloflag/halo/progress.hpp"
#include "haloflag/halo/strategy.hpp"
#include "haloflag/halo/transport.hpp"
#include "haloflag/notify/backend.hpp"
#include "haloflag/notify/control_block.hpp"

namespace haloflag::examples {

struct VariantSettings {
  haloflag::notify::Backend backend = haloflag::notify::Backend::host;
  // Deadline of every wait: the exchanges', the resident kernel's flag waits (and the norms').
  std::chrono::nanoseconds timeout = haloflag::notify::kDefaultWaitTimeout;
  int gpu_threads = 256;  // threads per block of the GPU kernels
  // Blocks of the resident cooperative grid; 0: sized by the rank's cells within what the
  // occupancy API says fits at once, shared among the ranks bound to the same GPU
  // (resident_grid_size.hpp).
  int resident_blocks = 0;
  // Ranks bound to this rank's GPU (halo::GpuBinding::sharers): under MPS their resident grids
  // wait on one another through the exchange, so they must all fit at once, each its share.
  int gpu_sharers = 1;
  int host_team_threads = 2;  // host backend: CPU threads that play the resident grid
  // The exchanges' transport (docs/transports.md), and the node peers it sends in lines.
  haloflag::halo::Transport transport = haloflag::halo::Transport::automatic;
  std::int64_t node_lines_up_to_bytes = haloflag::halo::kDefaultNodeLinesUpToBytes;
  // Blocks of the node transport's piece grid (kernels::LaunchSettings::node_blocks); 0: its
  // default.
  int node_blocks = 0;
  // Bytes of a node piece (kernels::LaunchSettings::node_piece_bytes), the share of a message one
  // block moves at a time; 0: the library's default.
  int node_piece_bytes = 0;
  // The resident kernels' finish tells the node peers where the next exchange goes
  // (kernels::NextExchange), so that its start need not announce its fields; false: each
  // exchange announces them at its start.
  bool next_exchange_told = true;
  // The resident kernels' sends update the cells they send (the `update` of
  // kernels::embedded_exchange_start), so that no grid barrier stands between the boundary
  // update and the exchange's start; false: the boundary first, a grid barrier, then the start;
  // empty: by the rank's cells per thread (sends_update_boundary).
  std::optional<bool> sends_update_cells;
  // Who runs the MPI peers' side of the stream variant's exchange while its stream runs: the
  // exchange's progress thread (needs MPI_THREAD_MULTIPLE) or the run's own thread.
  haloflag::halo::Progress progress = haloflag::halo::Progress::thread;
};

// How the resident kernels' exchanges reach their node peers' fields, for the variants'
// descriptions (VariantSettings::next_exchange_told).
inline const char* next_exchange_route(bool told) {
  return told ? "each finish telling the node peers where the next one goes"
              : "each start announcing its fields to the node peers";
}

// The options every variant's Exchange shares, for `strategy` over `comm`.
inline haloflag::halo::ExchangeOptions exchange_options(const VariantSettings& settings,
                                                        MPI_Comm comm,
                                                        haloflag::halo::Strategy strategy) {
  haloflag::halo::ExchangeOptions options;
  options.strategy = strategy;
  options.backend = settings.backend;
  options.comm = comm;
  options.timeout = settings.timeout;
  options.transport = settings.transport;
  options.advanced.node_lines_up_to_bytes = settings.node_lines_up_to_bytes;
  options.advanced.launch.node_blocks = settings.node_blocks;
  if (settings.node_piece_bytes > 0) {
    options.advanced.launch.node_piece_bytes = settings.node_piece_bytes;
  }
  return options;
}

}  // namespace haloflag::examples
