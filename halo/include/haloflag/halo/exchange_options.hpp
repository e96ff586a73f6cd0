/// @file
/// How an Exchange runs: what a user chooses (ExchangeOptions), and the orders of work and
/// launch shapes behind it (AdvancedOptions).
#pragma once

#include <mpi.h>

#include <chrono>
#include <cstdint>

#include "haloflag/halo/piece_transfer.hpp"
#include "haloflag/halo/progress.hpp"
#include "haloflag/halo/strategy.hpp"
#include "haloflag/halo/transport.hpp"
#include "haloflag/halo/tuning.hpp"
#include "haloflag/kernels/launch_settings.hpp"
#include "haloflag/notify/backend.hpp"
#include "haloflag/notify/control_block.hpp"

namespace haloflag::halo {

/// ExchangeOptions::idle_exit: Strategy::resident's kernels never leave the GPU between exchanges.
inline constexpr std::chrono::nanoseconds kIdleExitNever = std::chrono::nanoseconds::max();
/// ExchangeOptions::idle_exit's default: a relaunch costs a few tens of microseconds, so an idle
/// gap of this length pays under 2 % of it for the kernels' return, and a device-wide wait (a
/// synchronize, a free, a kernel's first load) is held at most this long (docs/design.md,
/// "Resident kernels that leave when idle").
inline constexpr std::chrono::nanoseconds kDefaultIdleExit = std::chrono::milliseconds(2);

/// The orders of work, launch shapes and MPI details an Exchange runs with. The defaults are the
/// fastest measured on the lent machines; tune() (tune.hpp) measures them where the Exchange
/// runs instead (docs/exchange.md, "What to set when").
struct AdvancedOptions {
  /// where the node transport puts a receiver's buffers and flags
  NodeMapping node_mapping = NodeMapping::automatic;
  /// Node transport with the receiver's fields mapped: which messages still go through its
  /// buffer. by_shape: those whose receiver's cells come in rows shorter than 64 bytes (x faces,
  /// interleaved variables) and that hold at least node_buffered_from_bytes: over NVLink, stores
  /// scattered one element per row run at a fraction of the link's rate, and a gather into the
  /// buffer with an unpack by the receiver wins once the message is large enough.
  NodePlacement node_placement = NodePlacement::by_shape;
  /// by_shape: the smallest short-row message that goes through the buffer.
  std::int64_t node_buffered_from_bytes = kDefaultNodeBufferedFromBytes;
  /// Node transport, strategies whose kernels move pieces (not comb_fused, comb_graph,
  /// stream_base): a peer whose messages to a rank hold at most this many bytes per exchange in
  /// all, every element a multiple of 4 bytes, sends them in lines, flagged words that are
  /// their own signal, into two sets of the receiver's buffer used by the epoch's parity
  /// (docs/transports.md, "Lines"). They take twice the bytes across the link and four times
  /// the buffer, and save the announce, the count and its trip. 0: never.
  std::int64_t node_lines_up_to_bytes = kDefaultNodeLinesUpToBytes;
  /// MPI peers: one persistent request per message, made at set-up (MPI_Send_init,
  /// MPI_Recv_init) and started by every exchange (MPI_Start), instead of MPI_Isend and
  /// MPI_Irecv per message and exchange: MPI_Start skips their per-call set-up.
  bool persistent_requests = true;
  /// Pause of a GPU thread between two polls of a flag in pinned host memory (see
  /// notify::WaitControl): shorter reacts sooner, longer disturbs the host's memory traffic less.
  std::chrono::nanoseconds poll_backoff = notify::kDefaultPollBackoff;
  kernels::LaunchSettings launch;  ///< launch shapes of the exchange kernels
  /// Flag strategies: messages of at least this many bytes are long: packed after the short ones,
  /// by the whole grid in stacked_notify, and received on arrival with long_receives_on_arrival.
  /// 0 picks half the largest message, so the faces of a cube are long and its edges and corners
  /// short.
  std::int64_t long_message_bytes = 0;
  /// Flag strategies: post each long receive only once its message has arrived (MPI_Iprobe) and
  /// every send of the exchange is posted, one after another, each handed to the GPU as soon as
  /// it completes; off: every receive is posted at start(), before any send (the paper's Fig. 5).
  /// Faster where MPI copies a long message inside the call that matches it with one copy
  /// (Open MPI's cma); posted first is faster without single copy.
  bool long_receives_on_arrival = true;
  /// Flag strategies: the blocks of the long sends pack the long messages together, one after
  /// another, each signalled once packed, and the CPU tests the receives between two sends.
  /// Off: each long send is packed by its own block, all at once. Pair it with
  /// long_receives_on_arrival.
  bool long_sends_in_turn = false;
  /// Flag strategies, MPI peers: each message longer than this is cut into pieces of at most
  /// this many bytes, each packed, sent, received and unpacked on its own (piece_transfer.hpp);
  /// 0 sends every message whole. Peers must agree (checked at set-up).
  std::int64_t mpi_piece_bytes = kDefaultMpiPieceBytes;
  /// How the pieces travel: MPI 4 partitioned communication where the library has it, else a
  /// request per piece (piece_transfer.hpp). Peers must agree (checked at set-up).
  PieceTransfer piece_transfer = PieceTransfer::automatic;
};

/// What a user chooses for an Exchange; the rest is in `advanced`.
struct ExchangeOptions {
  Strategy strategy = Strategy::stream_notify;  ///< how messages are packed, moved and unpacked
  notify::Backend backend = notify::Backend::host;  ///< where the exchange runs
  /// Duplicated by the Exchange, so its tags never meet the caller's messages.
  MPI_Comm comm = MPI_COMM_WORLD;
  /// The path of each peer's messages (transport.hpp). Peers agree at set-up: two ranks that
  /// choose differently for each other both fail, naming the other.
  Transport transport = Transport::automatic;
  /// Who runs the CPU side of the MPI peers' messages (progress.hpp). Stream-ordered exchanges
  /// with MPI peers need `thread`, or a caller that calls progress() while its stream runs.
  Progress progress = Progress::caller;
  /// fixed: the constructor runs `advanced` as given. automatic is refused by the constructor
  /// (ConfigError naming tune()): tuning times Exchanges of its own, so it is tune()'s or
  /// Exchange::tuned()'s (tune.hpp), which return fixed options with the fastest order.
  Tuning tuning = Tuning::fixed;
  /// Deadline of every wait: device flag waits, and the host's wait for one exchange to finish.
  /// A start that was promised (start(stream) stores it later on the caller's stream) is waited
  /// for at most this long by the resident kernels.
  std::chrono::nanoseconds timeout = notify::kDefaultWaitTimeout;
  /// Strategy::resident: once no exchange has started for this long, the kernels leave the GPU,
  /// so that a device-wide wait of the program around them (cudaDeviceSynchronize, cudaFree and
  /// the allocators' frees, a kernel's first lazy load) ends; the next start(), run() or
  /// start(stream) launches them again (Exchange::relaunches() counts it). Back-to-back
  /// exchanges never relaunch. kIdleExitNever keeps them on the GPU until the Exchange ends.
  /// At least 1 microsecond.
  std::chrono::nanoseconds idle_exit = kDefaultIdleExit;
  /// Record a timeline of every exchange (Exchange::last_timeline): a clock read per message
  /// event on the host and, for the flag strategies, device-clock stamps written by the blocks.
  /// Off for timing runs.
  bool trace = false;
  AdvancedOptions advanced;  ///< orders of work, launch shapes and MPI details
};

/// Whether the long messages' helper blocks (launch.long_receive_blocks, long_send_blocks) run:
/// only in the stream kernels' GPU launches. A host lane runs its blocks one after another, so a
/// helper could wait on a block queued behind it; an embedding kernel and the stacked grid have
/// none.
inline bool runs_helper_blocks(const ExchangeOptions& options) {
  return (options.strategy == Strategy::stream_notify || options.strategy == Strategy::resident) &&
         options.backend != notify::Backend::host;
}

/// Blocks per long receive as the kernels run them.
inline int effective_long_receive_blocks(const ExchangeOptions& options) {
  return runs_helper_blocks(options) ? options.advanced.launch.long_receive_blocks : 1;
}

/// The order of work that `options` states, and the same options with another order.
inline WorkOrder work_order_of(const ExchangeOptions& options) {
  return {options.advanced.long_receives_on_arrival, options.advanced.long_sends_in_turn,
          effective_long_receive_blocks(options)};
}

/// Sets the order of work in `options` to `order`.
inline void set_work_order(ExchangeOptions& options, const WorkOrder& order) {
  AdvancedOptions& advanced = options.advanced;
  advanced.long_receives_on_arrival = order.long_receives_on_arrival;
  advanced.long_sends_in_turn = order.long_sends_in_turn;
  advanced.launch.long_receive_blocks = order.long_receive_blocks;
  if (order.node_piece_bytes > 0) advanced.launch.node_piece_bytes = order.node_piece_bytes;
  if (order.node_threads > 0) advanced.launch.node_threads = order.node_threads;
  if (order.mpi_piece_bytes >= 0) advanced.mpi_piece_bytes = order.mpi_piece_bytes;
}

}  // namespace haloflag::halo
