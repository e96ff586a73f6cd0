/// @file
/// The node transport's share of the piece grid (docs/design.md, "The node transport"), run in
/// the order of transports/piece_grid_steps.hpp: written once over a group (block_waits.hpp),
/// run by the GPU kernels and the host backend's threads alike.
///
///  1. at the start (piece_grid_start), this rank tells every node sender that its ghost cells
///     may take the epoch (ghosts_free);
///  2. send pieces i = block, block + blocks, ...: wait until the receiver's ghosts are free
///     (a word in this rank's memory), gather the piece from this rank's cells and store it into
///     the receiver's ghost cells or buffer, fence, count it in; the block completing a peer's
///     count stores the epoch into that peer's arrival word;
///  3. receive pieces likewise: wait for the peer's arrival (this rank's memory), unpack the
///     piece from this rank's buffer unless the peer placed it directly, count it in.
/// A peer in lines (node_lines.hpp) is neither announced to at the start nor counted: its
/// pieces go as flagged words, each receiving thread waits for its own, and the block
/// completing the peer's count of unpacked pieces frees that set of words for the epoch two
/// ahead.
/// Every piece is counted in the piece grid's work (piece_grid.hpp).
#pragma once

#include <cstdint>

#include "haloflag/kernels/block_waits.hpp"
#include "haloflag/kernels/detail/exchange_plan.hpp"
#include "haloflag/kernels/device_times.hpp"
#include "haloflag/kernels/group_moves.hpp"
#include "haloflag/kernels/pack_unpack.hpp"
#include "haloflag/kernels/piece_grid.hpp"
#include "haloflag/kernels/transports/node/node_lines.hpp"
#include "haloflag/kernels/transports/node/node_route.hpp"
#include "haloflag/notify/flag_ops.hpp"
#include "haloflag/notify/portability.hpp"

namespace haloflag::kernels {

/// The FieldSet slot this rank's exchange unpacks into, as it tells its senders: the plan's
/// selected slot, or where the caller's kernel picks its fields (embedded), the slot of its
/// fields when it let senders place into them (kBufferedSlot otherwise).
HF_HD inline std::uint64_t announced_slot(const ExchangePlan& plan) {
  if (in_callers_kernel(plan)) return plan.fields_slot;
  return *static_cast<const volatile std::uint32_t*>(plan.field_slot);
}

/// The member of `group` that stores a word into a node peer (the start's announce, free_early,
/// lines_unpacked): one of another warp than thread 0's, where the group has one. A GPU thread's
/// release, and the fence of the caller's grid barrier, which thread 0 makes, first wait until
/// the stores of that thread's warp are performed, and one across NVLink takes about 2 us to be.
/// Thread 0's relay of the start, its count of the work and the barrier then no longer wait for
/// it (docs/design.md, "Rules of the flag protocol", rule 3).
template <ExchangeGroup Group>
HF_HD int peer_word_writer(const Group& group) {
#if HF_HIP_DEVICE_CODE
  constexpr int kWarpThreads = 64;  // a wavefront of the gfx9 GPUs the HIP build is for
#else
  constexpr int kWarpThreads = 32;
#endif
  return group.size() > kWarpThreads ? kWarpThreads : 0;
}

/// Whether an announce notes its word in this rank's announced_to. The caller's kernel reads the
/// note (slot_told, announce unless announced); the launched grids never do, and their note's
/// release would hold the store to the peer, on the exchange's critical path. A compile-time
/// choice, so that the caller's kernel keeps the code (and the registers) it had.
enum class AnnounceNote { noted, unnoted };

/// This rank's ghost cells (FieldSet `slot`, where the sender mapped it) or else its node
/// buffers may take `epoch` (one thread): a store into node sender `p`'s memory, noted in this
/// rank's (announced_to) where `Note` says so. The store publishes nothing, so it is relaxed
/// (rule 3): every read of those cells or buffers was complete before it, behind the barrier or
/// count that led here. A caller's kernel after launched grids notes its own epochs, which are
/// newer than any the launched grids left unnoted.
template <AnnounceNote Note = AnnounceNote::noted>
HF_HD void announce_ghosts_free_to(const ExchangePlan& plan, std::uint32_t p, std::uint64_t epoch,
                                   std::uint64_t slot) {
  const NodePeerRoute& peer = plan.routes.node->peers[p];
  if (peer.pieces_in > 0 && peer.lines_in == 0) {
    const std::uint64_t word = ghosts_free_word(epoch, slot);
    if constexpr (Note == AnnounceNote::noted) {
      if (peer.announced_to != nullptr) notify::store_release_same_side(peer.announced_to, word);
    }
    notify::store_relaxed_system(peer.ghosts_free_there, word);
  }
}

/// The same to every node sender, with the plan's slot.
template <AnnounceNote Note = AnnounceNote::noted>
HF_HD void announce_ghosts_free(const ExchangePlan& plan, std::uint64_t epoch) {
  if (plan.routes.node == nullptr) return;
  const std::uint64_t slot = announced_slot(plan);
  for (std::uint32_t p = 0; p < plan.routes.node->peer_count; ++p) {
    announce_ghosts_free_to<Note>(plan, p, epoch, slot);
  }
}

/// The same to every node sender that has not heard of `epoch` yet (the caller's kernel may
/// have told it early: free_early): announcing twice could change the slot under pieces already
/// on their way.
HF_HD inline void announce_ghosts_free_unless_announced(const ExchangePlan& plan,
                                                        std::uint64_t epoch) {
  if (plan.routes.node == nullptr) return;
  const std::uint64_t slot = announced_slot(plan);
  for (std::uint32_t p = 0; p < plan.routes.node->peer_count; ++p) {
    const std::uint64_t* noted = plan.routes.node->peers[p].announced_to;
    if (noted != nullptr &&
        (notify::load_relaxed_same_side(noted) >> kGhostsFreeSlotBits) >= epoch) {
      continue;
    }
    announce_ghosts_free_to(plan, p, epoch, slot);
  }
}

/// The slot this rank told `peer` for `epoch`, read once the peer's pieces of it are in. Where
/// the word is of another epoch, the slot was the plan's:
///   - an older one: the epoch was announced at this start, by another group whose store has
///     not reached this one yet (its release orders the stores before it, not the relaxed store
///     to the peer after it, which the peer answered), with the plan's slot;
///   - a newer one: the block that saw the peer's arrival told it the next epoch at once
///     (free_early, an epoch placed whole), after checking this epoch's slot against the plan's.
/// (A counted early announcement comes only once every group has read and counted.)
HF_HD inline std::uint64_t slot_told(const ExchangePlan& plan, const NodePeerRoute& peer,
                                     std::uint64_t epoch) {
  if (peer.announced_to == nullptr) return kBufferedSlot;
  const std::uint64_t word = notify::load_acquire_same_side(peer.announced_to);
  return (word >> kGhostsFreeSlotBits) == epoch ? word & kBufferedSlot : announced_slot(plan);
}

/// The same once per epoch from whichever of many groups comes first (one thread): the embedded
/// API's groups, any of which may be the first to see the start. Announcing to every peer before
/// any wait keeps the ranks' waits on each other acyclic.
HF_HD inline void announce_ghosts_free_once(const ExchangePlan& plan, std::uint64_t epoch) {
  if (notify::raise_same_side(plan.routes.node->announced, epoch)) announce_ghosts_free(plan, epoch);
}

/// A receive from `peer` this epoch was placed in the ghost cells by the sender: the sender has
/// this rank's FieldSet of the epoch's slot mapped.
HF_HD inline bool placed_directly(const NodePeerRoute& peer, std::uint64_t slot) {
  return slot_mapped(peer.direct_in, slot);
}

namespace detail {

/// The leader waits until the receiver's ghosts are free for `epoch`; every member learns the
/// outcome and where to place directly: the receiver's FieldSet of the slot it announced, when
/// that is mapped here (null: into its buffer).
struct GhostsFree {
  BlockStatus status;
  const FieldSet* direct;
};

/// `relayed`: wait on the grid's relay of the word where there is one (the node grid; the
/// embedded API's groups poll the word itself). `abort_reads`: see first_piece_of_peer.
template <ExchangeGroup Group>
HF_HD GhostsFree wait_ghosts_free(const Group& group, const ExchangePlan& plan,
                                  std::uint32_t peer_index, std::uint64_t epoch,
                                  std::uint32_t waiter, bool relayed,
                                  notify::AbortReads abort_reads = notify::AbortReads::periodic) {
  const NodePeerRoute& peer = plan.routes.node->peers[peer_index];
  if (lines_free_from_start(peer, epoch)) return {BlockStatus::ok, nullptr};
  const std::uint64_t* word = relayed && peer.ghosts_free_relay != nullptr
                                  ? peer.ghosts_free_relay
                                  : peer.ghosts_free_here;
  constexpr int kSlots = static_cast<int>(kBufferedSlot) + 1;
  int outcome = static_cast<int>(kBufferedSlot);  // BlockStatus * kSlots + slot placed into
  if (group.thread() == 0) {
    // The word is a permission that publishes nothing (rule 3): a first relaxed look that finds
    // it spares the wait's acquire and second read, which the epoch's critical path pays.
    std::uint64_t seen = notify::load_relaxed_system(word);
    notify::WaitOutcome waited = notify::WaitOutcome::ready;
    if (seen < ghosts_free_word(epoch, 0)) {
      waited = notify::wait_word(word, plan.routes.node->ghosts_free_id, peer_index,
                                 ghosts_free_word(epoch, 0), plan.control, notify::Side::device,
                                 waiter, abort_reads, notify::Scope::system, &seen);
    }
    if (waited != notify::WaitOutcome::ready || seen == kStopEpoch) {  // a relay of a failure
      outcome = static_cast<int>(BlockStatus::failed) * kSlots;
    } else if (slot_mapped(peer.direct_out, seen & kBufferedSlot)) {
      outcome = static_cast<int>(seen & kBufferedSlot);
    }
  }
  outcome = group.from_leader(outcome);
  const int slot = outcome % kSlots;
  return {static_cast<BlockStatus>(outcome / kSlots),
          slot == static_cast<int>(kBufferedSlot) ? nullptr : &peer.target_fields[slot]};
}

/// How a piece grid's block waits on a peer's word for piece `i` of `pieces` (grouped or ordered
/// so that a peer's first piece is known): the block of the peer's first piece also reads the
/// host's abort flag, the others only their own memory (notify::AbortReads). Every block of the
/// grid may wait on one word at once, and their reads of the one host line would be served one
/// after another, hundreds of microseconds on the critical path.
HF_HD inline notify::AbortReads first_piece_of_peer(const NodePiece* pieces, std::uint32_t i) {
  return i == 0 || pieces[i - 1].peer != pieces[i].peer ? notify::AbortReads::periodic
                                                        : notify::AbortReads::none;
}

/// After the group's barrier, thread 0 publishes `elements` elements (`pieces` pieces) of send
/// `message`. Counting pairs: one system-scope release add into the receiver's counter. Else a
/// system-scope fence orders this block's stores before its count in this rank's memory, and
/// the block completing the peer's count stores the epoch (release: it publishes every counted
/// block's pieces).
HF_HD inline void count_sent_pieces(const ExchangePlan& plan, const NodeSendRoute& route,
                                    std::uint32_t pieces, std::uint32_t elements,
                                    std::uint64_t epoch) {
  const NodePeerRoute& peer = plan.routes.node->peers[route.peer];
  if (peer.lines_out != 0) {
    // The words carry their own flags: nothing to publish.
  } else if (peer.counts_out != 0) {
    notify::add_release_system(peer.arrival_there, elements);
  } else {
    notify::fence_release_system();
    const std::uint64_t before = notify::count_in_same_side(peer.pieces_sent, pieces);
    if ((before + pieces) % peer.pieces_out == 0) {
      notify::store_release_system(peer.arrival_there, epoch);
    }
  }
  count_piece_work(plan, epoch, pieces);
}

/// Traces: the arrival of `piece` was seen. A directly placed peer's receives all arrived then
/// (and need no unpack; those through the buffer stamp their own); a buffered piece stamps its
/// receive when it is the first piece.
HF_HD inline void stamp_arrival(const ExchangePlan& plan, const NodePiece& piece, bool direct) {
  if (!direct) {
    if (piece.first == 0) stamp_device_time(plan.times.recv_slot(piece.message, RecvTime::ready_seen));
    return;
  }
  for (std::uint32_t r = 0; r < plan.recv_count; ++r) {
    const NodeRecvRoute& recv = plan.routes.node->recvs[r];
    if (recv.peer != piece.peer || recv.through_buffer != 0) continue;
    stamp_device_time(plan.times.recv_slot(r, RecvTime::ready_seen));
    stamp_device_time(plan.times.recv_slot(r, RecvTime::unpacked));
  }
}

/// After a block took `pieces` of peer `p`'s pieces of `epoch` in (one thread, peer_word_writer;
/// `placed`: the epoch went into the ghost cells). Where the caller's kernel picks its fields
/// (embedded), the block completing the peer's count tells the peer at once where the next epoch
/// may go, a whole iteration ahead of the start, so that the peer's next sends wait for nothing:
///   - into the ghost cells of `next_slot`, the FieldSet of the caller's next exchange
///     (NextExchange), after any epoch: the caller's kernel said it leaves them alone until
///     that exchange completes;
///   - else (next_slot kUnregisteredFields, which is kBufferedSlot) into this rank's buffer,
///     after an epoch that came through it: the peer wrote only there, and every piece is out.
/// An epoch placed into the ghost cells with no next fields said counts nothing: the caller's
/// kernel may read its other ghost cells until its next start, which alone can free them.
HF_HD inline void free_early(const ExchangePlan& plan, std::uint32_t p, std::uint64_t epoch,
                             std::uint32_t pieces, bool placed, std::uint32_t next_slot) {
  if (!in_callers_kernel(plan)) return;  // the launched grids announce their slot at the start
  const NodePeerRoute& peer = plan.routes.node->peers[p];
  if (peer.pieces_unpacked == nullptr || peer.lines_in != 0) return;
  if (placed && next_slot == kUnregisteredFields) return;
  // A peer whose pieces were all placed is complete once its arrival is seen: the block that saw
  // it tells at once, without the count's read-modify-write on the epoch's critical path.
  if (placed && pieces == peer.pieces_in) {
    announce_ghosts_free_to(plan, p, epoch + 1, next_slot);
    return;
  }
  const std::uint64_t before = notify::count_in_same_side(peer.pieces_unpacked, pieces);
  if ((before + pieces) % peer.pieces_in == 0) {
    announce_ghosts_free_to(plan, p, epoch + 1, next_slot);
  }
}

/// The caller's kernel told peer `p` early that `epoch` goes into the fields of slot `told`
/// (NextExchange), and the epoch's plan takes other fields: the peer may have placed its pieces
/// in the wrong ghost cells. Recorded as node_ghosts_free[p] (WaitOutcome::wrong_fields, the
/// slot told as its last value seen); the group counts nothing, so the epoch never completes and
/// the host's finish() reports it.
template <ExchangeGroup Group>
HF_HD BlockStatus refuse_other_fields(const Group& group, const ExchangePlan& plan,
                                      std::uint32_t p, std::uint64_t epoch, std::uint64_t told,
                                      std::uint32_t waiter) {
  if (group.thread() == 0) {
    notify::record_wait_failure(plan.control, notify::Side::device,
                                notify::WaitOutcome::wrong_fields,
                                plan.routes.node->ghosts_free_id, p, epoch, told, 0, waiter);
  }
  return BlockStatus::failed;
}

/// After a block unpacked `pieces` pieces of `epoch` from peer `p`, which sends in lines (one
/// thread, peer_word_writer): the block completing the peer's count frees the set of words they
/// came in for the epoch two ahead. Relaxed, as every announce (rule 3): the reads of the set
/// are complete, behind each block's barrier and its count.
HF_HD inline void lines_unpacked(const ExchangePlan& plan, std::uint32_t p, std::uint64_t pieces,
                                 std::uint64_t epoch) {
  const NodePeerRoute& peer = plan.routes.node->peers[p];
  const std::uint64_t before = notify::count_in_same_side(peer.pieces_unpacked, pieces);
  if ((before + pieces) % peer.pieces_in == 0) {
    notify::store_relaxed_system(peer.ghosts_free_there,
                                 ghosts_free_word(epoch + kLineParities, kBufferedSlot));
  }
}

/// How the threads of block `waiter` wait for the words of a piece from peer `p` (a failure is
/// node_arrival[p]'s). Pieces arrive on their own, so any block may be the last one waiting
/// after an abort: thread 0 of each reads the host's abort flag once it has waited long
/// (AbortReads::late), and the others leave once a device wait has failed.
HF_HD inline notify::FlaggedWait lines_wait(const ExchangePlan& plan, std::uint32_t p,
                                            std::uint32_t waiter, int thread) {
  return {plan.control, plan.routes.node->arrival_id, p, waiter,
          thread == 0 ? notify::AbortReads::late : notify::AbortReads::none};
}

/// The group takes elements [first, end) of node receive `message` from peer `p`'s lines of
/// `epoch`, then counts `pieces` pieces unpacked (thread 0 the work, peer_word_writer the
/// peer's). Every member returns the same status: failed when any member's wait failed.
template <ExchangeGroup Group>
HF_HD BlockStatus take_lines_of(const Group& group, const ExchangePlan& plan,
                                std::uint32_t message, std::uint32_t first, std::uint32_t end,
                                std::uint32_t pieces, std::uint64_t epoch,
                                std::uint32_t waiter) {
  const NodeRecvRoute& route = plan.routes.node->recvs[message];
  const MessageLayout& layout = plan.recvs[message];
  const std::uint64_t* lines =
      lines_of_epoch(const_cast<std::byte*>(route.data), layout, epoch);
  (void)take_lines(group, layout, fields_of(plan), first, end, lines, epoch,
                   lines_wait(plan, route.peer, waiter, group.thread()));
  group.sync();  // every member's words are in, or its wait failed and said so
  int failed = 0;
  if (group.thread() == 0) failed = device_wait_failed(plan.control) ? 1 : 0;
  if (group.from_leader(failed) != 0) return BlockStatus::failed;
  if (group.thread() == peer_word_writer(group)) lines_unpacked(plan, route.peer, pieces, epoch);
  if (group.thread() == 0) {
    if (first == 0) stamp_device_time(plan.times.recv_slot(message, RecvTime::ready_seen));
    stamp_device_time(plan.times.recv_slot(message, RecvTime::unpacked));
    count_piece_work(plan, epoch, pieces);
  }
  return BlockStatus::ok;
}

}  // namespace detail

/// Elements [first, end) of node send `message` into its receiver's ghost cells (`to`, its
/// fields mapped here) or, with `to` null, its buffer; the group's members, then thread 0
/// counts `pieces` pieces in. The receiver's ghosts must be free for the epoch
/// (wait_ghosts_free, which also says `to`).
template <ExchangeGroup Group>
HF_HD void move_send_part(const Group& group, const ExchangePlan& plan, std::uint32_t message,
                          std::uint32_t first, std::uint32_t end, std::uint32_t pieces,
                          const FieldSet* to, std::uint64_t epoch) {
  const NodeSendRoute& route = plan.routes.node->sends[message];
  if (group.thread() == 0 && first == 0) {
    stamp_device_time(plan.times.send_slot(message, SendTime::pack_begin));
  }
  if (plan.routes.node->peers[route.peer].lines_out != 0) {
    put_lines(group, plan.sends[message], fields_of(plan), first, end,
              lines_of_epoch(route.target_buffer, route.target, epoch), epoch);
  } else {
    detail::move_elements(group, plan.sends[message], fields_of(plan), first, end, route.target,
                          to, route.target_buffer);
  }
  group.sync();
  if (group.thread() == 0) {
    // Traces: each piece's block stamps when its part is out; the last one stays.
    stamp_device_time(plan.times.send_slot(message, SendTime::packed));
    detail::count_sent_pieces(plan, route, pieces, end - first, epoch);
  }
}

/// Block 0's relays (one thread): for every peer whose words are in pinned host memory, waits on
/// the word and copies it into its relay in device memory (kStopEpoch when the wait failed, so
/// the blocks waiting on the relay leave too). `arrivals`: the arrival words, else ghosts_free.
HF_HD inline bool relay_host_words(const ExchangePlan& plan, std::uint64_t epoch, bool arrivals) {
  bool ok = true;
  for (std::uint32_t p = 0; p < plan.routes.node->peer_count; ++p) {
    const NodePeerRoute& peer = plan.routes.node->peers[p];
    std::uint64_t* relay = arrivals ? peer.arrival_relay : peer.ghosts_free_relay;
    if (relay == nullptr || (arrivals ? peer.pieces_in : peer.pieces_out) == 0) continue;
    // Lines have no arrival word, and their sets are free without a wait at first.
    if (arrivals ? peer.lines_in != 0 : lines_free_from_start(peer, epoch)) continue;
    const std::uint64_t* word = arrivals ? peer.arrival_here : peer.ghosts_free_here;
    const std::uint64_t target = arrivals ? arrival_target(peer, epoch) : ghosts_free_word(epoch, 0);
    // The word as the wait saw it: read again, it would cost another read across the bus.
    std::uint64_t seen = kStopEpoch;
    ok = ok && notify::wait_word(word, arrivals ? plan.routes.node->arrival_id
                                                : plan.routes.node->ghosts_free_id,
                                 p, target, plan.control, notify::Side::device, 0,
                                 notify::AbortReads::periodic, notify::Scope::system, &seen) ==
                   notify::WaitOutcome::ready;
    notify::store_release_system(relay, ok ? seen : kStopEpoch);
  }
  return ok;
}

/// Step 2, before block 0's first send piece: the relays of the ghosts_free words that lie in
/// pinned host memory.
template <ExchangeGroup Group>
HF_HD BlockStatus relay_ghosts_free(const Group& group, const ExchangePlan& plan,
                                    std::uint64_t epoch) {
  if (plan.routes.node == nullptr) return BlockStatus::ok;
  const int ok = group.thread() == 0 ? relay_host_words(plan, epoch, false) : 1;
  return group.from_leader(ok) == 0 ? BlockStatus::failed : BlockStatus::ok;
}

/// Step 2 for node send piece `i`: waits until its receiver's ghosts are free for the epoch,
/// then says where the piece goes (the receiver's ghost cells, its buffer, or with `Lines`
/// present its set of flagged words).
template <LinesCode Lines, ExchangeGroup Group>
HF_HD BlockStatus node_send_piece(const Group& group, const ExchangePlan& plan, std::uint32_t i,
                                  std::uint32_t waiter, std::uint64_t epoch,
                                  detail::SendPiece& out) {
  const NodePlan& node = *plan.routes.node;
  const NodePiece piece = node.send_pieces[i];
  const detail::GhostsFree free =
      detail::wait_ghosts_free(group, plan, piece.peer, epoch, waiter, true,
                               detail::first_piece_of_peer(node.send_pieces, i));
  if (free.status != BlockStatus::ok) return free.status;
  const NodeSendRoute& route = node.sends[piece.message];
  out = {piece.message, piece.first, piece.first + piece.count, &route.target,
         route.through_buffer != 0 ? nullptr : free.direct, route.target_buffer,
         Lines == LinesCode::present && node.peers[piece.peer].lines_out != 0
             ? lines_of_epoch(route.target_buffer, route.target, epoch)
             : nullptr};
  return BlockStatus::ok;
}

/// After the group moved node send piece `piece` (thread 0): count it towards the receiver's
/// arrival.
HF_HD inline void node_send_piece_moved(const ExchangePlan& plan, const detail::SendPiece& piece,
                                        std::uint64_t epoch) {
  detail::count_sent_pieces(plan, plan.routes.node->sends[piece.message], 1,
                            piece.end - piece.first, epoch);
}

/// Step 3: block `block` of `blocks` completes its receive pieces. A peer that placed its pieces
/// directly leaves nothing to unpack but the receives this rank takes through its buffer
/// (through_buffer): the block of its first other piece alone waits, for all of those. Peers in
/// lines are taken first, where `Lines` is present. `next_slot`: in the caller's kernel, the
/// FieldSet slot of its next exchange where it said one (detail::free_early).
template <LinesCode Lines, ExchangeGroup Group>
HF_HD BlockStatus node_receive_pieces(const Group& group, const ExchangePlan& plan,
                                      std::uint32_t block, std::uint32_t blocks,
                                      std::uint64_t epoch,
                                      std::uint32_t next_slot = kUnregisteredFields) {
  if (plan.routes.node == nullptr) return BlockStatus::ok;
  const NodePlan& node = *plan.routes.node;
  // The launched grids announce their plan's slot at the start; the caller's kernel may have
  // announced an epoch early (into the buffer), so it reads what it told the peer once the
  // peer's pieces are in.
  const bool launched = !in_callers_kernel(plan);
  const std::uint64_t slot = launched ? announced_slot(plan) : kBufferedSlot;
  if (block == 0) {
    const int ok = group.thread() == 0 ? relay_host_words(plan, epoch, true) : 1;
    if (group.from_leader(ok) == 0) return BlockStatus::failed;
  }
  if constexpr (Lines == LinesCode::present) {
    for (std::uint32_t j = block; j < node.recv_piece_count; j += blocks) {
      const NodePiece piece = node.recv_pieces[j];
      if (node.peers[piece.peer].lines_in == 0) continue;
      const BlockStatus status = detail::take_lines_of(
          group, plan, piece.message, piece.first, piece.first + piece.count, 1, epoch, block);
      if (status != BlockStatus::ok) return status;
    }
  }
  for (std::uint32_t j = block; j < node.recv_piece_count; j += blocks) {
    const NodePiece piece = node.recv_pieces[j];
    const NodePeerRoute& peer = node.peers[piece.peer];
    if (peer.lines_in != 0) continue;
    const bool placeable = node.recvs[piece.message].through_buffer == 0;
    const bool counts_placed = j == peer.first_direct_piece;
    if (launched && placeable && placed_directly(peer, slot) && !counts_placed) continue;
    const std::uint64_t* arrival =
        peer.arrival_relay != nullptr ? peer.arrival_relay : peer.arrival_here;
    const BlockStatus status =
        leader_wait_word(group, arrival, node.arrival_id, piece.peer, arrival_target(peer, epoch),
                         plan.control, block, detail::first_piece_of_peer(node.recv_pieces, j));
    if (status != BlockStatus::ok) return status;
    const std::uint64_t told = launched ? slot : slot_told(plan, peer, epoch);
    if (!launched && told != kBufferedSlot && told != plan.fields_slot) {
      return detail::refuse_other_fields(group, plan, piece.peer, epoch, told, block);
    }
    const bool peer_direct = placed_directly(peer, told);
    const bool direct = placeable && peer_direct;
    if (direct && !counts_placed) continue;  // the block of counts_placed counts them
    if (group.thread() == 0 && plan.times.slots != nullptr) detail::stamp_arrival(plan, piece, direct);
    if (!direct) {
      detail::unpack_elements(group, plan.recvs[piece.message], fields_of(plan), piece.first,
                              piece.first + piece.count,
                              node.recvs[piece.message].data);
      group.sync();
    }
    const std::uint32_t taken = direct ? peer.direct_pieces_in : 1;
    if (group.thread() == peer_word_writer(group)) {
      detail::free_early(plan, piece.peer, epoch, taken, peer_direct, next_slot);
    }
    if (group.thread() == 0) {
      if (!direct) stamp_device_time(plan.times.recv_slot(piece.message, RecvTime::unpacked));
      count_piece_work(plan, epoch, taken);
    }
  }
  return BlockStatus::ok;
}

}  // namespace haloflag::kernels
