/// @file
/// Which path a message's bytes take between two ranks (docs/transports.md; docs/design.md,
/// "One exchange").
///   mpi : pinned zero-copy buffers, the CPU state machine and MPI_Isend/MPI_Irecv (any peer);
///   node: peers of this rank's shared-memory node; the sender's GPU writes into the receiver's
///         memory and releases its flag, no MPI call and no CPU step per message;
///   nccl: NCCL's own transfers of the packed buffers, stream-ordered (Strategy::nccl only: it
///         has no device route for the kernels of the other strategies);
///   self: a rank's messages to itself (a periodic axis of one rank): its cells copied straight
///         into its own ghost cells. Chosen for them by every transport but mpi, never asked for.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace haloflag::halo {

/// How messages reach each peer.
enum class Transport {
  automatic,  ///< node for every peer of this rank's node, mpi for the others
  mpi,        ///< mpi for every peer
  node,       ///< node for every peer; a peer off the node is an error naming it
  nccl,       ///< NCCL for every peer: only Strategy::nccl, whose transfers are NCCL's own
  self,       ///< a rank to itself (PeerTransport only: not a choice parse_transport accepts)
};

/// Where the node transport puts a receiver's buffers and flags.
enum class NodeMapping {
  automatic,  ///< the receiver's device memory through IPC where the sender can open it, else host
  host,       ///< host memory both ranks map, registered as pinned (the fallback, forced)
};

/// Which node messages go straight into the receiver's ghost cells where its fields are mapped
/// (direct placement), and which through its buffer, unpacked by the receiver (docs/transports.md,
/// "Placement by shape"). The receiver decides for each of its receives and tells the sender.
enum class NodePlacement {
  by_shape,  ///< through the buffer when the receiver's rows are short and the message large
  direct,    ///< every message into the ghost cells where they are mapped
  buffered,  ///< every message through the buffer
};

/// NodePlacement::by_shape's default size from which a short-row message goes through the buffer.
inline constexpr std::int64_t kDefaultNodeBufferedFromBytes = std::int64_t{128} << 10;

/// AdvancedOptions::node_lines_up_to_bytes's default: 0, no peer in lines, until they are
/// measured faster on two GPUs (docs/transports.md, "Lines").
inline constexpr std::int64_t kDefaultNodeLinesUpToBytes = 0;
/// The limit that suits lines where they are chosen: Jacobi3D's messages, not cube 200's.
inline constexpr std::int64_t kSuggestedNodeLinesUpToBytes = std::int64_t{64} << 10;

/// The transport's name.
std::string_view to_string(Transport transport);
/// The mapping's name.
std::string_view to_string(NodeMapping mapping);
/// Throw std::invalid_argument naming the valid choices ("auto", "mpi", "node", "nccl"; "auto",
/// "host").
Transport parse_transport(std::string_view name);
/// As parse_transport, for NodeMapping.
NodeMapping parse_node_mapping(std::string_view name);
/// The placement's name: "by-shape", "direct", "buffered".
std::string_view to_string(NodePlacement placement);
/// As parse_transport, for NodePlacement.
NodePlacement parse_node_placement(std::string_view name);

/// How this rank reaches one peer, as the Exchange decided at set-up.
struct PeerTransport {
  int peer = 0;            ///< rank in the Exchange's communicator
  Transport transport = Transport::mpi;  ///< mpi, node, nccl or self
  /// For node peers, where the peer's messages to this rank land: "device (IPC)", "pinned host"
  /// (with the reason when IPC was refused) or "shared memory" (host backend). For mpi peers
  /// "mpi" (with the pieces where messages are cut), for nccl peers "NCCL", for the rank itself
  /// how its cells reach its ghost cells.
  std::string path;
  /// Node peers: this rank's sends to the peer that go through the peer's buffer even where
  /// this rank maps the peer's ghost cells (NodePlacement; the peer decided, and told this rank).
  int sends_through_buffer = 0;
  /// Node peers: the receives from the peer that come through this rank's buffer even where the
  /// peer maps this rank's ghost cells (this rank decided).
  int recvs_through_buffer = 0;
};

/// "node: 1 (device (IPC)); self: 0 (...); mpi: 2, 3", or "nccl: 1" under Strategy::nccl
std::string describe(const std::vector<PeerTransport>& peers);

}  // namespace haloflag::halo
