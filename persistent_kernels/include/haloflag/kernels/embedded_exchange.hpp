/// @file
/// The whole exchange from inside the caller's kernel, started by the kernel itself: no host
/// step per exchange over node and self, and only the CPU state machine beside the kernel over
/// MPI (halo::Strategy::embedded; docs/embedding.md, "The whole exchange from the kernel").
///
/// Every block of the caller's grid calls, for its exchange `epoch` (1, 2, ... in turn):
///
///   embedded_exchange_start(block, plan, b, blocks, epoch)   // after a grid barrier: the
///                                                            // fields hold epoch's values
///   ... work that does not touch the ghost cells ...
///   embedded_exchange_finish(block, plan, b, blocks, epoch)
///   embedded_barrier(grid, plan, epoch, status)              // every ghost cell is in
///
/// where `block` is the block's group (ThreadBlockGroup, or HostThreadGroup on the host
/// backend), `b` its index in the grid and `blocks` the grid's blocks. The exchange is cut into
/// the piece grid's pieces (transports/piece_grid_steps.hpp) and split over every block: block b
/// moves pieces b, b + blocks, ... A node piece goes straight into the receiver's ghost cells
/// where the receiver's plan names fields its sender mapped (halo::Exchange::device_plan(fields)),
/// else through the receiver's buffer, which the receiver's blocks unpack and then free for the
/// next epoch at once. A kernel that double-buffers tells finish where its next exchange goes
/// (NextExchange), and those ghost cells are freed as soon as the peer's pieces are in; block 0
/// announces the other epochs at the start. The plan keeps the epoch in device memory: block 0
/// advances it; an epoch out of turn is refused at once, recorded as device_epoch[0]. Every wait
/// has the plan's deadline and abort flag, as the rest of the embedded API (embedded_barrier
/// lets a grid leave together after a failure), and the grid's
/// last block reads the host's abort flag once per exchange. Messages over MPI go whole, one
/// block each (from the grid's last block down): packed into the pinned send buffer once the CPU
/// says it is free, signalled through send_ready, and unpacked once the CPU's unpack_ready shows
/// the epoch. The host starts
/// nothing: it tells the Exchange how far the kernel went (halo::Exchange::started_on_device);
/// for peers over MPI the CPU state machine then takes the exchanges in turn beside the kernel
/// (the progress thread, or the caller's progress() and finish()), and finish() waits for the
/// last exchange and reports any failure.
#pragma once

#include <cstdint>

#include "haloflag/kernels/block_waits.hpp"
#include "haloflag/kernels/device_plan.hpp"
#include "haloflag/kernels/embedded_api.hpp"
#include "haloflag/kernels/sent_cell_updates.hpp"
#include "haloflag/kernels/transports/piece_grid_steps.hpp"
#include "haloflag/notify/flag_ops.hpp"
#include "haloflag/notify/portability.hpp"
#include "haloflag/notify/system_atomics.hpp"

namespace haloflag::kernels {
namespace detail {

/// The group's leader checks `epoch` against the plan's device epoch: in turn when it is the
/// next exchange, or the current one once block 0 has advanced it. Anything else (an exchange
/// skipped, one used twice, 0) is recorded and refused at once.
template <ExchangeGroup Group>
HF_HD BlockStatus device_epoch_in_turn(const Group& group, const ExchangePlan& plan,
                                       std::uint64_t epoch, std::uint32_t waiter) {
  int status = static_cast<int>(BlockStatus::ok);
  if (group.thread() == 0) {
    const std::uint64_t seen = notify::load_acquire_same_side(plan.device_epoch);
    if (epoch == 0 || (seen + 1 != epoch && seen != epoch)) {
      notify::record_wait_failure(plan.control, notify::Side::device,
                                  notify::WaitOutcome::out_of_order, plan.device_epoch_id, 0,
                                  epoch, seen, 0, waiter);
      status = static_cast<int>(BlockStatus::failed);
    }
  }
  return static_cast<BlockStatus>(group.from_leader(status));
}

/// The host's abort (Exchange::abort, or a failure the host saw) ends the caller's kernel within
/// one exchange even where no wait of it would read the flag: the grid's last block, which moves
/// a piece only when there are more pieces than blocks, reads it across the bus once per
/// exchange while the other blocks move theirs.
template <ExchangeGroup Group>
HF_HD BlockStatus host_abort_seen(const Group& group, const ExchangePlan& plan,
                                  std::uint32_t block, std::uint32_t blocks, std::uint64_t epoch) {
  if (block + 1 != blocks) return BlockStatus::ok;
  int status = static_cast<int>(BlockStatus::ok);
  if (group.thread() == 0 && notify::abort_raised(plan.control)) {
    notify::record_wait_failure(plan.control, notify::Side::device, notify::WaitOutcome::aborted,
                                plan.device_epoch_id, 0, epoch,
                                notify::load_relaxed_same_side(plan.device_epoch), 0, block);
    status = static_cast<int>(BlockStatus::failed);
  }
  return static_cast<BlockStatus>(group.from_leader(status));
}

/// A kernel built without the node transport's lines (Lines == absent) cannot serve a plan with
/// a peer in lines: every block refuses the exchange at once, and block 0 records why. The plan's
/// flag is one word every thread reads alike, so every member returns the same.
template <LinesCode Lines>
HF_HD BlockStatus build_serves(const ExchangePlan& plan, std::uint32_t block, std::uint32_t thread,
                               std::uint64_t epoch) {
  if constexpr (Lines == LinesCode::present) {
    return BlockStatus::ok;
  } else {
    if (!plan.routes.node_lines) return BlockStatus::ok;
    if (block == 0 && thread == 0) {
      notify::record_wait_failure(plan.control, notify::Side::device,
                                  notify::WaitOutcome::wrong_build, plan.device_epoch_id, 0,
                                  epoch, 0, 0, block);
    }
    return BlockStatus::failed;
  }
}

/// The block of `blocks` that takes the `k`-th message over MPI of a kind: counted from the
/// grid's last block down, so that they fall on other blocks than the first node and self pieces.
HF_HD inline bool takes_mpi_message(std::uint32_t k, std::uint32_t block, std::uint32_t blocks) {
  return blocks - 1 - k % blocks == block;
}

/// The block's sends over MPI (each whole, by one block): once this rank's CPU has said the send
/// buffer is free (the previous exchange's sends completed), pack each into the pinned send
/// buffer and raise its send_ready for the CPU state machine, which posts it. They go first:
/// their path, across PCIe and through MPI, is the longest. `update`: see embedded_exchange_start.
template <ExchangeGroup Group, class Update>
HF_HD BlockStatus mpi_sends_of_block(const Group& group, const ExchangePlan& plan,
                                     std::uint32_t block, std::uint32_t blocks,
                                     std::uint64_t epoch, const Update& update) {
  if (!plan.message_blocks) return BlockStatus::ok;
  bool buffer_free = epoch == 1 || plan.send_buffer_free.count == 0;
  for (std::uint32_t m = 0, k = 0; m < plan.send_count; ++m) {
    if (self_send(plan, m) != nullptr || node_send(plan, m) != nullptr) continue;
    if (!takes_mpi_message(k++, block, blocks)) continue;
    update_sent_cells(group, plan.sends[m], fields_of(plan), 0,
                      static_cast<std::uint32_t>(plan.sends[m].element_count()), update);
    if (!buffer_free) {
      if (leader_wait(group, plan.send_buffer_free, 0, epoch - 1, plan.control, block) !=
          BlockStatus::ok) {
        return BlockStatus::failed;
      }
      buffer_free = true;
    }
    (void)pack_and_signal(group, plan, m, epoch, m);
  }
  return BlockStatus::ok;
}

/// The block's receives over MPI: each awaited on its unpack_ready (the CPU stores it once MPI
/// has received the message; its first read also checks the epoch), unpacked from the pinned
/// receive buffer, and handed back to the CPU through unpack_done.
template <ExchangeGroup Group>
HF_HD BlockStatus mpi_receives_of_block(const Group& group, const ExchangePlan& plan,
                                        std::uint32_t block, std::uint32_t blocks,
                                        std::uint64_t epoch) {
  if (!plan.message_blocks) return BlockStatus::ok;
  for (std::uint32_t r = 0, k = 0; r < plan.recv_count; ++r) {
    if (self_recv(plan, r) != nullptr || node_recv(plan, r) != nullptr) continue;
    if (!takes_mpi_message(k++, block, blocks)) continue;
    if (wait_in_turn(group, plan, plan.unpack_ready.word(r), plan.unpack_ready.array_id, r,
                     epoch, 1, r) != BlockStatus::ok) {
      return BlockStatus::failed;
    }
    unpack_and_signal(group, plan, r, epoch);
  }
  return BlockStatus::ok;
}

}  // namespace detail

/// Starts exchange `epoch` on this block's share: checks the epoch, then (block 0) advances the
/// device epoch and tells every node peer that has not heard of the epoch yet that this rank's
/// ghost cells (the plan's slot) or buffers are free; then packs the block's sends over MPI and
/// moves its send pieces (node peers' after their ghosts are free; the rank's own at once).
/// Returns BlockStatus::ok, or BlockStatus::failed (recorded; every member returns the same).
/// `Lines`: LinesCode::present (the default) serves every plan; a kernel compiled with
/// LinesCode::absent in both calls holds fewer registers, serves only plans without a node
/// peer in lines and refuses any other at once (with_embedded_lines_build picks).
/// `update` (sent_cell_updates.hpp): called as `update(variable, cell)` on every cell of the
/// block's sends as they move, so that the caller's grid need not update them, nor meet at a
/// barrier, before the start. It must write the value the cell takes this step from data that
/// stays put until the finish, the same value each time it is called on a cell; returning that
/// value lets the move send it on without reading the cell back.
template <LinesCode Lines = LinesCode::present, ExchangeGroup Group, class Update = NoCellUpdate>
HF_HD BlockStatus embedded_exchange_start(const Group& group, const DevicePlan& plan,
                                          std::uint32_t block, std::uint32_t blocks,
                                          std::uint64_t epoch, const Update& update = {}) {
  const ExchangePlan& internal = detail::plan_of(plan);
  if (detail::build_serves<Lines>(internal, block, group.thread(), epoch) != BlockStatus::ok ||
      detail::device_epoch_in_turn(group, internal, epoch, block) != BlockStatus::ok ||
      detail::host_abort_seen(group, internal, block, blocks, epoch) != BlockStatus::ok) {
    return BlockStatus::failed;
  }
  // Only the grid's own epoch checks read it, and it publishes nothing.
  if (block == 0 && group.thread() == 0) {
    notify::store_relaxed_same_side(internal.device_epoch, epoch);
  }
  if (block == 0 && group.thread() == peer_word_writer(group)) {
    // Peers whose pieces of the last exchange came through the buffer, or told then where this
    // one goes (NextExchange), heard of it as this rank took those pieces in (node_pieces.hpp,
    // free_early); the others hear of it now, with the slot of the plan's fields.
    announce_ghosts_free_unless_announced(internal, epoch);
  }
  if (detail::mpi_sends_of_block(group, internal, block, blocks, epoch, update) !=
      BlockStatus::ok) {
    return BlockStatus::failed;
  }
  // The caller's plan has no field bank (DevicePlan): its own fields are plan.fields().
  return piece_grid_sends<Lines, SelfIntoPlanFields>(group, internal, block, blocks, epoch,
                                                     update) == BlockStatus::ok
             ? BlockStatus::ok
             : BlockStatus::failed;
}

/// How many of a grid's `blocks` move send pieces in embedded_exchange_start: blocks 0 up to
/// this count (block b moves pieces b, b + blocks, ...). They come back from the start last, so
/// a kernel that shares other work among its blocks can give them less of it (host and device).
HF_HD inline std::uint32_t embedded_send_blocks(const DevicePlan& plan, std::uint32_t blocks) {
  const std::uint32_t pieces = detail::plan_of(plan).pieces.send_pieces;
  return pieces < blocks ? pieces : blocks;
}

/// What a caller's kernel that double-buffers says, at the finish of exchange `epoch`, of its
/// next one (next_exchange_on): that it takes the FieldSet of that plan, and that from this
/// exchange's start until that one completes the kernel neither reads nor writes those fields'
/// ghost cells. As soon as a node peer's pieces of `epoch` are in, the peer is told it may place
/// exchange `epoch + 1` there (where it mapped them), a whole iteration before that exchange
/// starts: its sends then wait for nothing. Every block says the same. The default says
/// nothing, and each exchange announces its fields at its start. A next exchange that takes
/// other fields than said fails in its finish (WaitOutcome::wrong_fields, the peer named).
struct NextExchange {
  std::uint32_t fields_slot = kUnregisteredFields;  ///< the next plan's (ExchangePlan::fields_slot)
};

/// The next exchange of the caller's kernel goes by `next`: its plan, as passed to that
/// exchange's embedded_exchange_start (halo::Exchange::device_plan(fields) of a mapped FieldSet,
/// for direct placement). Only where that exchange follows in the same kernel: the last one of
/// a run says nothing.
HF_HD inline NextExchange next_exchange_on(const DevicePlan& next) {
  return {detail::plan_of(next).fields_slot};
}

/// Completes this block's share of exchange `epoch`: waits for each of its receive pieces'
/// peers and unpacks the pieces that came through the buffer, then its receives over MPI. Every
/// ghost cell is in once every block has returned (the caller's grid barrier). `Lines`: as in
/// embedded_exchange_start; `next`: see NextExchange.
template <LinesCode Lines = LinesCode::present, ExchangeGroup Group>
HF_HD BlockStatus embedded_exchange_finish(const Group& group, const DevicePlan& plan,
                                           std::uint32_t block, std::uint32_t blocks,
                                           std::uint64_t epoch, NextExchange next = {}) {
  const ExchangePlan& internal = detail::plan_of(plan);
  if (piece_grid_receives<Lines>(group, internal, block, blocks, epoch, next.fields_slot) !=
      BlockStatus::ok) {
    return BlockStatus::failed;
  }
  return detail::mpi_receives_of_block(group, internal, block, blocks, epoch);
}

/// Calls `body(build)` with the build of the two calls above that `plan` needs, a
/// std::integral_constant of LinesCode: present only where a node peer sends or takes lines. A
/// caller that compiles its kernel in both builds launches the one named here (host code).
template <class Body>
decltype(auto) with_embedded_lines_build(const DevicePlan& plan, Body body) {
  return in_lines_build(detail::plan_of(plan), body);
}

/// The build with_embedded_lines_build names, as a value: which of the caller's kernels to launch.
inline LinesCode embedded_lines_build(const DevicePlan& plan) {
  return with_embedded_lines_build(plan, [](auto build) { return decltype(build)::value; });
}

}  // namespace haloflag::kernels
