// How an Exchange runs: strategy, backend, communicator, deadline, launch shapes.
#pragma once

#include <mpi.h>

#include <chrono>
#include <cstdint>

#include "haloflag/halo/progress.hpp"
#include "haloflag/halo/strategy.hpp"
#include "haloflag/halo/transport.hpp"
#include "haloflag/kernels/launch_settings.hpp"
#include "haloflag/notify/backend.hpp"
#include "haloflag/notify/control_block.hpp"

namespace haloflag::halo {

struct ExchangeOptions {
  Strategy strategy = Strategy::stream_notify;
  notify::Backend backend = notify::Backend::host;
  // Duplicated by the Exchange, so its tags never meet the caller's messages.
  MPI_Comm comm = MPI_COMM_WORLD;
  // The path of each peer's messages (transport.hpp). Peers agree at set-up: two ranks that
  // choose differently for each other both fail, naming the other.
  Transport transport = Transport::automatic;
  // Ranks of one node, for the node transport: MPI_Comm_split_type(MPI_COMM_TYPE_SHARED) of
  // comm, further split into groups of node_size consecutive ranks of comm when node_size > 0,
  // so that one host can stand for several nodes in tests and experiments.
  int node_size = 0;
  NodeMapping node_mapping = NodeMapping::automatic;
  // MPI peers: one persistent request per message, made at set-up (MPI_Send_init,
  // MPI_Recv_init) and started by every exchange (MPI_Start), instead of MPI_Isend and
  // MPI_Irecv per message and exchange (measured no slower: docs/transports.md).
  bool persistent_requests = true;
  // Who runs the CPU side of the MPI peers' messages (progress.hpp). Stream-ordered exchanges
  // with MPI peers need `thread`, or a caller that calls progress() while its stream runs.
  Progress progress = Progress::caller;
  // Deadline of every wait: device flag waits, and the host's wait for one exchange to finish.
  // Resident kernels also wait at most this long for the next exchange to start.
  std::chrono::nanoseconds timeout = notify::kDefaultWaitTimeout;
  // Pause of a GPU thread between two polls of a flag in pinned host memory (see
  // notify::WaitControl): shorter reacts sooner, longer disturbs the host's memory traffic less.
  std::chrono::nanoseconds poll_backoff = notify::kDefaultPollBackoff;
  kernels::LaunchSettings launch;
  // Flag strategies: messages of at least this many bytes are long: packed after the short ones,
  // by the whole grid in stacked_notify, and received on arrival with long_receives_on_arrival.
  // 0 picks half the largest message, so the faces of a cube are long and its edges and corners
  // short.
  std::int64_t long_message_bytes = 0;
  // Flag strategies: post each receive of at least long_message_bytes only once its message has
  // arrived (MPI_Iprobe) and every send of the exchange is posted (with long_sends_in_turn:
  // between two sends), one after another, each handed to the GPU as soon as it completes; the short receives are still posted at start(). Off: every
  // receive is posted at start(), before any send (the paper's Fig. 5). Open MPI's shared-memory
  // transport copies a long message inside the MPI call that matches it: with every receive posted
  // at start(), one receive test copied all six long messages of a cube-200 exchange (~40 us)
  // before any could be unpacked; posted one at a time, each is unpacked while the next is copied.
  // docs/exchange.md has the measurements (a gain, then a draw, with Open MPI's CMA single copy; a
  // loss with the lent machines' `none` setting), hence off by default.
  bool long_receives_on_arrival = false;
  // Flag strategies: the blocks of the long sends pack the long messages together, one after
  // another, each signalled as soon as it is packed (stacked_notify always packs them so), and
  // once the short sends are out the CPU tests the receives between two sends, posting one
  // arrived long receive at a time with long_receives_on_arrival. Off: each long send is packed
  // by its own block, all at once; their flags land together when all their data has crossed
  // PCIe (~25 us after the short sends at cube 200 on H200 x2), and only then does MPI start
  // copying the long messages. Pair it with long_receives_on_arrival: with every receive posted
  // first, one receive test copies every long message that has arrived while sends wait (a loss
  // on H100 proxies). docs/exchange.md has the measurements.
  bool long_sends_in_turn = false;
  // Record a timeline of every exchange (Exchange::last_timeline): a clock read per message
  // event on the host and, for the flag strategies, device-clock stamps written by the blocks.
  // Off for timing runs.
  bool trace = false;
};

}  // namespace haloflag::halo
