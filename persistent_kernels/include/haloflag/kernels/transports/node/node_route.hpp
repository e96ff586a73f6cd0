/// @file
/// The device half of the node transport (docs/design.md, "The node transport"): where the
/// pieces of the messages to peers of this node go, and the words the two GPUs signal through.
///
/// A node send is cut into pieces of a few KiB; any block of the node grid moves any piece, by
/// gathering it from this rank's cells and storing it either straight into the receiver's ghost
/// cells (direct placement, through the receiver's field memory mapped here) or into the
/// receiver's buffer (buffered), which the receiver unpacks by pieces. Every signal is a store
/// into the other rank's memory, and every poll reads this rank's own:
///   - ghosts_free: the receiver, at the start of its epoch e, stores (e << 4) | slot into the
///     sender's memory: its ghost cells and buffer may take epoch e, and `slot` (its FieldSet
///     for the epoch) says whether the sender may place directly (a slot the sender mapped);
///   - arrival: where the two GPUs have native peer atomics (and on the host backend), every
///     block adds the elements of its piece to the receiver's arrival counter with one
///     system-scope release add, and the receiver waits for e x its elements per epoch;
///     elsewhere (pinned host memory between them) the sender's block completing its count of
///     the pieces for that peer stores e into the receiver's arrival word;
///   - lines (node_lines.hpp): where the receiver takes a peer's messages as flagged words, the
///     words are their own arrival, and ghosts_free frees each set of words two epochs ahead.
/// Trivially copyable plain views: the plan points kernels at arrays of these.
#pragma once

#include <cstdint>
#include <limits>
#include <type_traits>

#include "haloflag/kernels/detail/exchange_plan.hpp"
#include "haloflag/kernels/field_set.hpp"
#include "haloflag/kernels/message_layout.hpp"
#include "haloflag/notify/portability.hpp"

namespace haloflag::kernels {

/// Marks a message that does not use the node transport.
inline constexpr std::uint32_t kNoNodePeer = std::numeric_limits<std::uint32_t>::max();

/// The low bits of a ghosts_free word: the receiver's FieldSet slot for the epoch. kBufferedSlot
/// says "into my buffer" whatever is mapped (the embedded API, whose fields the caller's kernel
/// picks).
inline constexpr std::uint64_t kGhostsFreeSlotBits = 4;
/// Slot value meaning "into my buffer".
inline constexpr std::uint64_t kBufferedSlot = (std::uint64_t{1} << kGhostsFreeSlotBits) - 1;
static_assert(kBufferedSlot == kUnregisteredFields && kMaxFieldSets < kBufferedSlot);

/// The ghosts_free word announcing `epoch` with FieldSet slot `slot`.
HF_HD constexpr std::uint64_t ghosts_free_word(std::uint64_t epoch, std::uint64_t slot) {
  return (epoch << kGhostsFreeSlotBits) | slot;
}

/// One peer of this node that this rank sends to or receives from.
struct NodePeerRoute {
  std::uint64_t* arrival_there = nullptr;      ///< in the peer's memory; this rank writes
  std::uint64_t* ghosts_free_there = nullptr;  ///< in the peer's memory; this rank writes
  const std::uint64_t* arrival_here = nullptr;      ///< in this rank's memory; the peer writes
  const std::uint64_t* ghosts_free_here = nullptr;  ///< in this rank's memory; the peer writes
  /// This rank's device memory: its pieces to the peer moved so far (pieces_out per epoch). The
  /// block completing an epoch's count stores the arrival.
  std::uint64_t* pieces_sent = nullptr;
  /// This rank's device memory: the peer's pieces unpacked from this rank's buffer so far
  /// (pieces_in per epoch), counted where the caller's kernel picks its fields (embedded): the
  /// block completing an epoch's count frees the buffer for the next one at once.
  std::uint64_t* pieces_unpacked = nullptr;
  /// This rank's device memory: the ghosts_free word it last announced to the peer. Where the
  /// caller's kernel picks its fields, the epoch may have been announced early (into the
  /// buffer), and the receive side reads here where the peer's pieces went.
  std::uint64_t* announced_to = nullptr;
  /// Where this rank's words are in pinned host memory (the fallback), the node grid's block 0
  /// alone polls them and copies what it saw here, in device memory, for the other blocks: GPU
  /// reads of host memory are served one after another, and a grid polling them starves.
  /// Null where the words are in this GPU's memory.
  std::uint64_t* ghosts_free_relay = nullptr;
  std::uint64_t* arrival_relay = nullptr;  ///< the relay of the arrival word (see ghosts_free_relay)
  /// [kMaxFieldSets]: the peer's FieldSet of each slot, mapped here where bit `slot` of
  /// direct_out is set (device-readable memory).
  const FieldSet* target_fields = nullptr;
  std::uint32_t pieces_out = 0;  ///< this rank's send pieces to the peer, per epoch
  std::uint32_t pieces_in = 0;   ///< the receive pieces (NodePlan::recv_pieces) from the peer
  /// Of pieces_in, those of receives the peer may place directly (not through_buffer): in an
  /// epoch placed directly, the block of the first of them alone waits, for all of them.
  std::uint32_t direct_pieces_in = 0;
  /// The first of those in NodePlan::recv_pieces (kNoNodePeer where there is none).
  std::uint32_t first_direct_piece = 0;
  std::uint32_t direct_in = 0;   ///< bit s: the peer has mapped this rank's FieldSet of slot s
  std::uint32_t direct_out = 0;  ///< bit s: the peer's FieldSet of slot s is mapped here
  /// 1: the arrival word counts elements (added by the sender's blocks); 0: it holds the epoch
  /// (stored once by the sender). For arrival_here and for arrival_there.
  std::uint32_t counts_in = 0;
  std::uint32_t counts_out = 0;  ///< the same for arrival_there
  /// 1: the peer's messages to this rank come in lines (node_lines.hpp): its pieces carry
  /// their own flags into this rank's buffer, and no arrival word is used; this rank frees each
  /// set of words for the epoch two ahead as it unpacks it (ghosts_free_there).
  std::uint32_t lines_in = 0;
  std::uint32_t lines_out = 0;  ///< the same for this rank's messages to the peer
  std::uint64_t elements_in = 0;  ///< elements of the peer's messages to this rank, per epoch
};

/// Whether `slot`, announced by a receiver, names one of its FieldSets mapped as `mapped` says
/// (direct_in or direct_out).
HF_HD inline bool slot_mapped(std::uint32_t mapped, std::uint64_t slot) {
  return slot < static_cast<std::uint64_t>(kMaxFieldSets) && ((mapped >> slot) & 1U) != 0;
}

/// Sets of flagged words per receive in lines (node_lines.hpp): one per parity of the epoch.
inline constexpr std::uint64_t kLineParities = 2;

/// Whether this rank's pieces of `epoch` to `peer` may go without waiting for its ghosts_free
/// word: in lines, the first set of each parity is free from the start.
HF_HD inline bool lines_free_from_start(const NodePeerRoute& peer, std::uint64_t epoch) {
  return peer.lines_out != 0 && epoch <= kLineParities;
}

/// The value of a peer's arrival word once every piece of `epoch` from it has landed.
HF_HD inline std::uint64_t arrival_target(const NodePeerRoute& peer, std::uint64_t epoch) {
  return peer.counts_in != 0 ? epoch * peer.elements_in : epoch;
}

/// A send of this rank; peer == kNoNodePeer: it goes over MPI.
struct NodeSendRoute {
  MessageLayout target{};              ///< the receiver's layout of the message: its ghost cells
  std::byte* target_buffer = nullptr;  ///< the receiver's buffer for it, mapped here
  std::uint32_t peer = kNoNodePeer;    ///< index into NodePlan::peers
  std::uint32_t pieces = 0;  ///< the message's pieces
  /// 1: into the receiver's buffer even in an epoch placed directly (its rows are short: the
  /// receiver decided, halo::NodePlacement).
  std::uint32_t through_buffer = 0;
};

/// A receive of this rank; peer == kNoNodePeer: it comes over MPI.
struct NodeRecvRoute {
  const std::byte* data = nullptr;  ///< this rank's buffer for it
  std::uint32_t peer = kNoNodePeer;  ///< index into NodePlan::peers
  std::uint32_t pieces = 0;  ///< the message's pieces
  std::uint32_t through_buffer = 0;  ///< as NodeSendRoute::through_buffer, told to its sender
};

/// Elements [first, first + count) of a message, in buffer order.
struct NodePiece {
  std::uint32_t message = 0;  ///< the message
  std::uint32_t first = 0;  ///< its first element
  std::uint32_t count = 0;  ///< number of elements
  std::uint32_t peer = 0;  ///< index into NodePlan::peers
};

/// The node transport's route table, itself in device-readable memory (RouteTables::node), as is
/// everything it points to. The pieces are the node's share of the piece grid's work.
struct NodePlan {
  const NodePeerRoute* peers = nullptr;  ///< [peer_count]
  const NodeSendRoute* sends = nullptr;     ///< [send_count]
  const NodeRecvRoute* recvs = nullptr;     ///< [recv_count]
  const NodePiece* send_pieces = nullptr;   ///< in message order
  const NodePiece* recv_pieces = nullptr;   ///< grouped by peer
  std::uint32_t peer_count = 0;  ///< number of node peers
  std::uint32_t send_piece_count = 0;  ///< entries of send_pieces
  std::uint32_t recv_piece_count = 0;  ///< entries of recv_pieces
  /// Device memory, [1]: the last epoch whose free ghosts the embedded API's groups announced
  /// (the first group to raise it announces for all).
  std::uint64_t* announced = nullptr;
  std::uint32_t arrival_id = 0;      ///< failure records: node_arrival[peer]
  std::uint32_t ghosts_free_id = 0;  ///< node_ghosts_free[peer]
};

static_assert(std::is_trivially_copyable_v<NodePeerRoute>);
static_assert(std::is_trivially_copyable_v<NodeSendRoute>);
static_assert(std::is_trivially_copyable_v<NodeRecvRoute>);
static_assert(std::is_trivially_copyable_v<NodePiece>);
static_assert(std::is_trivially_copyable_v<NodePlan>);

/// The node route of send `message`, or null when another transport carries it.
HF_HD inline const NodeSendRoute* node_send(const ExchangePlan& plan, std::uint32_t message) {
  const NodePlan* node = plan.routes.node;
  if (node == nullptr || node->sends[message].peer == kNoNodePeer) return nullptr;
  return &node->sends[message];
}

/// The node route of receive `message`, or null when another transport carries it.
HF_HD inline const NodeRecvRoute* node_recv(const ExchangePlan& plan, std::uint32_t message) {
  const NodePlan* node = plan.routes.node;
  if (node == nullptr || node->recvs[message].peer == kNoNodePeer) return nullptr;
  return &node->recvs[message];
}

}  // namespace haloflag::kernels
