/// @file
/// The piece grid's program (docs/design.md, "Transports and strategies"): the one place that
/// knows which transports move pieces, and in which order a block takes them in one epoch:
///  1. start: block 0 sees the exchange start (host flag or the caller's stream), tells every
///     node sender that this rank's ghost cells may take the epoch, and relays the start in
///     device memory to the other blocks;
///  2. node send pieces, first: a peer waits on them;
///  3. self pieces: nobody waits on them, and they fill the time the node receives would spend
///     waiting for their arrival. They continue the node's count of send pieces, so that a
///     grid of a block per send piece (the launched grid) gives each block one piece;
///  4. node receive pieces.
/// Written once over a group (block_waits.hpp), run by the GPU kernels and the host backend's
/// threads alike; the stacked kernel calls the send and receive steps between its own.
#pragma once

#include <cstdint>
#include <type_traits>

#include "haloflag/kernels/block_waits.hpp"
#include "haloflag/kernels/detail/exchange_plan.hpp"
#include "haloflag/kernels/device_times.hpp"
#include "haloflag/kernels/group_moves.hpp"
#include "haloflag/kernels/idle_exit.hpp"
#include "haloflag/kernels/sent_cell_updates.hpp"
#include "haloflag/kernels/transports/node/node_pieces.hpp"
#include "haloflag/kernels/transports/self/self_pieces.hpp"
#include "haloflag/notify/portability.hpp"
#include "haloflag/notify/system_atomics.hpp"

namespace haloflag::kernels {

/// Where the grid's self pieces go. The launched grids name the exchange's fields in the field
/// bank (device memory), and every piece takes the one mover.
struct SelfIntoBank {};
/// The embedded call's plan has no field bank: its self pieces go into plan.fields() through the
/// embedded API's own copy (copy_self_part), which names the fields once for both sides. A
/// pointer to them carried beside the node's into the one mover may be the kernel's parameter,
/// and the compiler then copied the whole plan (about 1 KiB) into each thread's local memory.
struct SelfIntoPlanFields {};

namespace detail {

/// The group moves `piece` where its transport said, with the traces' stamps, its cells
/// updated by `update` on the way (sent_cell_updates.hpp; lines take the cells once updated).
template <LinesCode Lines, ExchangeGroup Group, class Update>
HF_HD void move_send_piece(const Group& group, const ExchangePlan& plan, const SendPiece& piece,
                           std::uint64_t epoch, const Update& update) {
  if (group.thread() == 0 && piece.first == 0) {
    stamp_device_time(plan.times.send_slot(piece.message, SendTime::pack_begin));
  }
  if (Lines == LinesCode::present && piece.lines != nullptr) {
    update_sent_cells(group, plan.sends[piece.message], fields_of(plan), piece.first, piece.end,
                      update);
    put_lines(group, plan.sends[piece.message], fields_of(plan), piece.first, piece.end,
              piece.lines, epoch);
  } else {
    move_sent_elements(group, plan.sends[piece.message], fields_of(plan), piece.first, piece.end,
                       *piece.target, piece.to, piece.buffer, update);
  }
  group.sync();
  // Traces: each piece's block stamps when its part is out; the last one stays.
  if (group.thread() == 0) stamp_device_time(plan.times.send_slot(piece.message, SendTime::packed));
}

/// The most elements a thread of a node piece updates in the move, after the wait for the
/// peer's ghosts; a larger piece is updated before that wait (update_node_piece_first).
inline constexpr std::uint32_t kNodeUpdatesInMove = 2;

/// Where a node piece has more than kNodeUpdatesInMove elements a thread, the group updates its
/// cells before it waits for the peer's ghosts, behind its barrier, and the move then reads them:
/// in the move, after the wait, a thread's updates lie one after another on the exchange's path.
/// On one H200 (two ranks under MPS), Jacobi3D's pieces of 2 elements a thread went faster
/// updated in the move, and those of 4 slower (docs/results/h200/2026-12-03_fused_sends).
/// Returns whether the group updated the piece here.
template <class Update, ExchangeGroup Group>
HF_HD bool update_node_piece_first(const Group& group, const ExchangePlan& plan, std::uint32_t i,
                                   const Update& update) {
  if constexpr (kUpdatesCells<Update>) {
    const NodePiece piece = plan.routes.node->send_pieces[i];
    if (piece.count <= kNodeUpdatesInMove * static_cast<std::uint32_t>(group.size())) return false;
    update_sent_cells(group, plan.sends[piece.message], fields_of(plan), piece.first,
                      piece.first + piece.count, update);
    return true;
  } else {
    (void)group;
    (void)plan;
    (void)i;
    (void)update;
    return false;
  }
}

}  // namespace detail

/// Steps 2 and 3 for block `block` of `blocks`: the send pieces of every transport in one count,
/// the node's first, and block b takes pieces b, b + blocks, ... (the launched grid has a block
/// per send piece). Each transport says where its piece goes and counts it once moved; the move
/// itself is written once here (with SelfIntoPlanFields the self pieces take the embedded
/// API's copy), so that the launched kernels hold the registers of one mover. `Lines`: whether
/// this build moves pieces in lines (node_lines.hpp); it must be present where a peer takes them.
/// `update`: called on each piece's cells as they move (sent_cell_updates.hpp).
template <LinesCode Lines, class SelfTarget = SelfIntoBank, ExchangeGroup Group,
          class Update = NoCellUpdate>
HF_HD BlockStatus piece_grid_sends(const Group& group, const ExchangePlan& plan,
                                   std::uint32_t block, std::uint32_t blocks,
                                   std::uint64_t epoch, const Update& update = {}) {
  if (block == 0 && relay_ghosts_free(group, plan, epoch) != BlockStatus::ok) {
    return BlockStatus::failed;
  }
  const std::uint32_t node_pieces =
      plan.routes.node != nullptr ? plan.routes.node->send_piece_count : 0;
  const std::uint32_t pieces = node_pieces + self_piece_count(plan);
  for (std::uint32_t i = block; i < pieces; i += blocks) {
    detail::SendPiece piece;
    bool updated = false;
    if (i < node_pieces) {
      updated = detail::update_node_piece_first(group, plan, i, update);
      const BlockStatus status = node_send_piece<Lines>(group, plan, i, block, epoch, piece);
      if (status != BlockStatus::ok) return status;
    } else if constexpr (std::is_same_v<SelfTarget, SelfIntoPlanFields>) {
      // The caller's kernel (embedded_exchange_start): its grid barrier after the finish is what
      // lets any block read the copy, and the count only marks progress (rule 3), so the copy
      // is left unpublished (copy_self_part).
      const SelfPiece self = plan.routes.self->pieces[i - node_pieces];
      detail::copy_self_part(group, plan, self.send, plan.routes.self->sends[self.send].recv,
                             self.first, self.first + self.count, update, false);
      if (group.thread() == 0) count_piece_work(plan, epoch, 1);
      continue;
    } else {
      piece = self_send_piece(plan, i - node_pieces, detail::banked_fields(plan));
    }
    if (updated) {
      detail::move_send_piece<Lines>(group, plan, piece, epoch, NoCellUpdate{});
    } else {
      detail::move_send_piece<Lines>(group, plan, piece, epoch, update);
    }
    if (group.thread() == 0) {
      if (i < node_pieces) {
        node_send_piece_moved(plan, piece, epoch);
      } else {
        self_send_piece_moved(plan, piece, epoch);
      }
    }
  }
  return BlockStatus::ok;
}

/// Step 4. `next_slot`: as node_receive_pieces's.
template <LinesCode Lines, ExchangeGroup Group>
HF_HD BlockStatus piece_grid_receives(const Group& group, const ExchangePlan& plan,
                                      std::uint32_t block, std::uint32_t blocks,
                                      std::uint64_t epoch,
                                      std::uint32_t next_slot = kUnregisteredFields) {
  return node_receive_pieces<Lines>(group, plan, block, blocks, epoch, next_slot);
}

/// Step 1 for the resident grid: block 0 watches the host's pack_start, announces this rank's
/// ghosts free (peer_word_writer) and relays what it saw (thread 0; kStopEpoch when its wait
/// failed); the others follow the relay in device memory. The relay is a gate between one GPU's
/// blocks, so it is released at device scope: a system-scope release first waits for the bus.
/// A watcher that leaves idle (idle_exit.hpp) does neither.
template <ExchangeGroup Group>
HF_HD BlockStatus piece_grid_start(const Group& group, const ExchangePlan& plan,
                                   std::uint32_t block, ResidentLaunch launch,
                                   std::uint64_t epoch) {
  if (block != 0) {
    return follow_start(group, plan, launch, plan.pieces.start_relay, notify::Scope::same_side,
                        epoch, block, false);
  }
  std::uint64_t seen = kStopEpoch;  // thread 0's: the pack_start that ended its wait
  const BlockStatus status = watch_start(group, plan, launch, epoch, block, seen);
  // The announce goes from another warp than the relay's release, which would wait for it.
  if (status == BlockStatus::ok && group.thread() == peer_word_writer(group)) {
    announce_ghosts_free<AnnounceNote::unnoted>(plan, epoch);
  }
  if (status != BlockStatus::left && group.thread() == 0) {
    notify::store_release_same_side(plan.pieces.start_relay,
                                    status == BlockStatus::failed ? kStopEpoch : seen);
  }
  return status;
}

/// One epoch of a launched piece grid (stream_notify): the launch is the start.
template <LinesCode Lines, ExchangeGroup Group>
HF_HD void piece_grid_exchange(const Group& group, const ExchangePlan& plan, std::uint32_t block,
                               std::uint32_t blocks, std::uint64_t epoch) {
  if (block == 0 && group.thread() == peer_word_writer(group)) {
    announce_ghosts_free<AnnounceNote::unnoted>(plan, epoch);
  }
  if (piece_grid_sends<Lines>(group, plan, block, blocks, epoch) != BlockStatus::ok) return;
  (void)piece_grid_receives<Lines>(group, plan, block, blocks, epoch);
}

/// One epoch of the resident piece grid; anything but ok ends the kernel. A block whose wait
/// failed (deadline or abort) stores kStopEpoch into the start relay: blocks already waiting
/// there for the next exchange leave at once instead of at their deadline.
template <LinesCode Lines, ExchangeGroup Group>
HF_HD BlockStatus resident_piece_grid_step(const Group& group, const ExchangePlan& plan,
                                           std::uint32_t block, std::uint32_t blocks,
                                           ResidentLaunch launch, std::uint64_t epoch) {
  BlockStatus status = piece_grid_start(group, plan, block, launch, epoch);
  if (status != BlockStatus::ok) return status;
  status = piece_grid_sends<Lines>(group, plan, block, blocks, epoch);
  if (status == BlockStatus::ok) {
    status = piece_grid_receives<Lines>(group, plan, block, blocks, epoch);
  }
  if (status == BlockStatus::failed && group.thread() == 0) {
    notify::store_release_same_side(plan.pieces.start_relay, kStopEpoch);
  }
  return status;
}

}  // namespace haloflag::kernels
