/// @file
/// The whole exchange from inside the caller's kernel, started by the kernel itself: no host
/// step per exchange (halo::Strategy::embedded, every peer over node or self; docs/embedding.md,
/// "The whole exchange from the kernel").
///
/// Every block of the caller's grid calls, for its exchange `epoch` (1, 2, ... in turn):
///
///   embedded_exchange_start(block, plan, b, blocks, epoch)   // after a grid barrier: the
///                                                            // fields hold epoch's values
///   ... work that does not touch the ghost cells ...
///   embedded_exchange_finish(block, plan, b, blocks, epoch)
///   grid barrier                                             // every ghost cell is in
///
/// where `block` is the block's group (ThreadBlockGroup, or HostThreadGroup on the host
/// backend), `b` its index in the grid and `blocks` the grid's blocks. The exchange is cut into
/// the piece grid's pieces (transports/piece_grid_steps.hpp) and split over every block: block b
/// moves pieces b, b + blocks, ... Every node piece goes through the receiver's buffer, which the
/// receiver's blocks unpack and then free for the next epoch at once (block 0 announces the
/// first epoch of a run). The plan keeps the epoch in device memory: block 0 advances it; an
/// epoch out of turn is refused at once, recorded as device_epoch[0]. Every wait has the plan's
/// deadline and abort flag, as the rest of the embedded API (embedded_failed(group, plan) lets a
/// grid leave together after a failure), and the grid's last block reads the host's abort flag
/// once per exchange. The host starts nothing: it tells the Exchange how far the kernel went
/// (halo::Exchange::started_on_device) and finish() then waits for the last exchange and reports
/// any failure. Peers over MPI need the host's CPU state machine per exchange: their messages go
/// through embedded_pack/embedded_unpack and start()/finish() instead, and the Exchange refuses
/// started_on_device on every rank while any rank has one (Exchange::can_start_on_device).
#pragma once

#include <cstdint>

#include "haloflag/kernels/block_waits.hpp"
#include "haloflag/kernels/device_plan.hpp"
#include "haloflag/kernels/embedded_api.hpp"
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

}  // namespace detail

/// Starts exchange `epoch` on this block's share: checks the epoch, then (block 0) advances the
/// device epoch and, unless the previous whole exchange freed them already, tells every node
/// peer that this rank's buffers are free, then moves the
/// block's send pieces (node peers' after their ghosts are free; the rank's own at once).
/// Returns BlockStatus::ok, or BlockStatus::failed (recorded; every member returns the same).
template <ExchangeGroup Group>
HF_HD BlockStatus embedded_exchange_start(const Group& group, const DevicePlan& plan,
                                          std::uint32_t block, std::uint32_t blocks,
                                          std::uint64_t epoch) {
  const ExchangePlan& internal = detail::plan_of(plan);
  if (detail::device_epoch_in_turn(group, internal, epoch, block) != BlockStatus::ok ||
      detail::host_abort_seen(group, internal, block, blocks, epoch) != BlockStatus::ok) {
    return BlockStatus::failed;
  }
  if (block == 0 && group.thread() == 0) {
    // After a whole exchange of this kernel's, its receivers freed their buffers for this one
    // as they unpacked (node_pieces.hpp, free_buffer_early): announcing again would only put a
    // system-scope fence before block 0's first piece.
    const bool freed_already =
        epoch > 1 && notify::load_relaxed_same_side(internal.device_epoch) + 1 == epoch;
    notify::store_release_same_side(internal.device_epoch, epoch);
    if (!freed_already) announce_ghosts_free(internal, epoch);
  }
  // The caller's plan has no field bank (DevicePlan): its own fields are plan.fields().
  return piece_grid_sends<SelfIntoPlanFields>(group, internal, block, blocks, epoch) ==
                 BlockStatus::ok
             ? BlockStatus::ok
             : BlockStatus::failed;
}

/// Completes this block's share of exchange `epoch`: waits for each of its receive pieces'
/// peers and unpacks the pieces that came through the buffer. Every ghost cell is in once every
/// block has returned (the caller's grid barrier).
template <ExchangeGroup Group>
HF_HD BlockStatus embedded_exchange_finish(const Group& group, const DevicePlan& plan,
                                           std::uint32_t block, std::uint32_t blocks,
                                           std::uint64_t epoch) {
  return piece_grid_receives(group, detail::plan_of(plan), block, blocks, epoch) ==
                 BlockStatus::ok
             ? BlockStatus::ok
             : BlockStatus::failed;
}

}  // namespace haloflag::kernels
