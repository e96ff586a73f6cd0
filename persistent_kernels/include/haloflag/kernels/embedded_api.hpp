/// @file
/// The device-side API for embedding the exchange in a kernel of the caller's own
/// (halo::Strategy::embedded; walk-through and complete example in docs/embedding.md).
///
/// The caller's persistent kernel takes the plan (halo::Exchange::device_plan(), an opaque
/// DevicePlan of device_plan.hpp) by value and, for its iteration i (epoch = first epoch + i),
/// packs each send message with one group and unpacks each receive message with one group, while
/// the host runs exchange.start() and exchange.finish() once per epoch:
///
///   if (embedded_pack(block, plan, m, epoch) != BlockStatus::ok) -> leave
///   ... work that does not need the ghost cells ...
///   if (embedded_unpack(block, plan, r, epoch) != BlockStatus::ok) -> leave
///
/// Messages: send m in [0, plan.send_count()), receive r in [0, plan.recv_count()), in the order
/// of halo::Exchange::messages(). Every send and every receive must be handled by exactly one
/// group each epoch; which group takes which message is the caller's choice. The fields packed
/// and unpacked are plan.fields(); pass plan.with_fields(other) to exchange another FieldSet of
/// the same extent and variable count (double buffering). A group is any type of the
/// ExchangeGroup concept of block_waits.hpp, which the compiler checks: ThreadBlockGroup or
/// CooperativeGridGroup (gpu_groups.hpp) in CUDA/HIP kernels, HostThreadGroup (host_groups.hpp)
/// on the host backend.
///
/// Deadline and abort: each wait ends at the plan's deadline (ExchangeOptions::timeout) or as
/// soon as the host raises the abort flag (an error on the host, Exchange::abort()). A failed
/// wait is recorded once in the plan's control block (which flag, index, epoch expected, value
/// last seen, waiter), the function returns BlockStatus::failed, and the host's progress()/finish()
/// throws ExchangeError naming it. After BlockStatus::failed the caller's kernel must stop using the
/// plan and return; embedded_failed() lets groups that were not waiting find out, so a whole
/// grid can leave together (embedded_failed(grid, plan) after each phase, or embedded_barrier
/// as the grid's barrier after each exchange). The kernel must have ended before the Exchange
/// is destroyed (its memory goes with it).
#pragma once

#include <cstdint>

#include "haloflag/kernels/block_programs.hpp"
#include "haloflag/kernels/device_plan.hpp"
#include "haloflag/notify/flag_ops.hpp"
#include "haloflag/notify/portability.hpp"
#include "haloflag/notify/system_atomics.hpp"

namespace haloflag::kernels {
namespace detail {

/// The epoch a caller's kernel passes must be the exchange its word is on or the next one (and
/// exchanges count from 1): a word ahead of it means the kernel is behind (an epoch used twice),
/// one two or more behind it means the kernel skipped an exchange. Either would wait until the
/// deadline or move stale data, so it is refused at once and recorded, naming the word and both
/// epochs. The check costs no read of its own: the leader's first read of the word it waits on
/// decides both whether the epoch is in turn and whether it must wait. A word that counts
/// (`per_epoch` units per exchange, a node arrival counter) is on epoch e once it reached
/// e x per_epoch; a plain flag has per_epoch 1.
template <ExchangeGroup Group>
HF_HD BlockStatus wait_in_turn(const Group& group, const ExchangePlan& plan,
                               const std::uint64_t* word, std::uint32_t array_id,
                               std::uint32_t index, std::uint64_t epoch, std::uint64_t per_epoch,
                               std::uint32_t waiter) {
  int status = static_cast<int>(BlockStatus::ok);
  if (group.thread() == 0) {
    const std::uint64_t target = epoch * per_epoch;
    const std::uint64_t seen = notify::load_acquire(word, notify::Scope::system);
    const bool skipped = epoch == 0 || seen + per_epoch < target;
    if (skipped || seen > target) {
      // The exchange the word is on: a counter past the target is on the next one already.
      const std::uint64_t on = (seen + (skipped ? 0 : per_epoch - 1)) / per_epoch;
      notify::record_wait_failure(plan.control, notify::Side::device,
                                  notify::WaitOutcome::out_of_order, array_id, index, epoch, on,
                                  0, waiter);
      status = static_cast<int>(BlockStatus::failed);
    } else if (seen < target &&
               notify::wait_word(word, array_id, index, target, plan.control,
                                 notify::Side::device, waiter) != notify::WaitOutcome::ready) {
      status = static_cast<int>(BlockStatus::failed);
    }
  }
  return static_cast<BlockStatus>(group.from_leader(status));
}

/// wait_in_turn on the host's pack_start, the start of exchange `epoch`.
template <ExchangeGroup Group>
HF_HD BlockStatus wait_for_start(const Group& group, const ExchangePlan& plan,
                                 std::uint64_t epoch, std::uint32_t waiter) {
  return wait_in_turn(group, plan, plan.pack_start.word(0), plan.pack_start.array_id, 0, epoch, 1,
                      waiter);
}

}  // namespace detail

/// Packs send message `message` of exchange `epoch` and tells the host it may send it.
/// Waits (the group's leader, for all members) until the plan's pack_start flag shows `epoch`,
/// which the host stores in Exchange::start(): from then on the send buffer is free (the previous
/// epoch's sends completed). Then the group packs the message from plan.fields() into the send
/// buffer, meets at a barrier, and the leader release-stores send_ready[message] = epoch. A
/// message of the node transport goes, once its receiver has said its ghosts are free for the
/// epoch, straight into the receiver's ghost cells or buffer (docs/design.md, "The node
/// transport"); the first group of the epoch also tells every node peer that this rank's own
/// ghosts are free. A message of the self transport (a rank's message to itself) is copied
/// straight into the ghost cells of the receive it pairs with (docs/transports.md, "self").
/// The fields must hold this epoch's values when it is called (the caller's own barrier).
/// Returns BlockStatus::ok, or BlockStatus::failed when a wait passed the deadline or the host
/// aborted (recorded as "pack_start[0]", or "node_ghosts_free[peer]"; nothing was packed), or at
/// once when `epoch` is neither the host's last start nor the next one (recorded as
/// "pack_start[0]", refused, with both epochs; the wait's own first read decides it).
/// Every member of the group returns the same value.
///
/// Every packing group polls the host flag pack_start itself, unlike the resident kernels, which
/// relay it through device memory from one block: with groups assigned to messages by the
/// caller, that block may not be running (or may be the one waiting), and the others would wait
/// on a relay nobody writes. One poll of a host line per message per epoch costs little next to
/// a stencil sweep.
template <ExchangeGroup Group>
HF_HD BlockStatus embedded_pack(const Group& group, const DevicePlan& plan,
                                std::uint32_t message, std::uint64_t epoch) {
  const ExchangePlan& internal = detail::plan_of(plan);
  // The embedded Exchange never stores kStopEpoch; anything but ready ends the caller's kernel.
  if (detail::wait_for_start(group, internal, epoch, message) != BlockStatus::ok) {
    return BlockStatus::failed;
  }
  if (const SelfSendRoute* self = self_send(internal, message)) {
    place_self_message(group, internal, *self, message, epoch);
    return BlockStatus::ok;
  }
  const NodeSendRoute* route = node_send(internal, message);
  if (route == nullptr) {
    return pack_and_signal(group, internal, message, epoch, message) == BlockStatus::ok
               ? BlockStatus::ok
               : BlockStatus::failed;
  }
  // The first group to get here tells every node peer that this rank's ghosts are free.
  if (group.thread() == 0) announce_ghosts_free_once(internal, epoch);
  const kernels::detail::GhostsFree free =
      kernels::detail::wait_ghosts_free(group, internal, route->peer, epoch, message, false);
  if (free.status != BlockStatus::ok) return BlockStatus::failed;
  const auto elements = static_cast<std::uint32_t>(internal.sends[message].element_count());
  move_send_part(group, internal, message, 0, elements, route->pieces,
                 route->through_buffer != 0 ? nullptr : free.direct, epoch);
  return BlockStatus::ok;
}

/// Unpacks receive message `message` of exchange `epoch` into the ghost cells of plan.fields().
/// Waits (the group's leader, for all members) until the plan's unpack_ready[message] flag shows
/// `epoch`, which the host stores once the message has arrived; then the group unpacks it from the
/// receive buffer, meets at a barrier, and the leader release-stores unpack_done[message] =
/// epoch (the host's exchange ends when every unpack_done shows the epoch, and only then
/// reuses the receive buffer). A message of the node transport is waited for on its peer's
/// arrival word in this rank's memory (from a peer this rank sends nothing to, only after the
/// exchange's start, pack_start: the group then tells it this rank's ghosts are free). A
/// receive of the self transport has nothing to unpack: its group waits until the group of the
/// send filling it has copied it (recorded as "self_placed[message]" on failure or out of turn).
/// Returns BlockStatus::ok, or BlockStatus::failed when the wait passed the deadline or the host
/// aborted (recorded as "unpack_ready[message]" or "node_arrival[peer]"; nothing was unpacked),
/// or at once when `epoch` is neither the exchange the message's flag is on nor the next one
/// (recorded as "unpack_ready[message]", or for a node message "node_arrival[peer]" with the
/// exchange its counter is on, refused; decided by the wait's own first read, so the check costs
/// a node receive no read of host memory).
/// Every member of the group returns the same value.
template <ExchangeGroup Group>
HF_HD BlockStatus embedded_unpack(const Group& group, const DevicePlan& plan,
                                  std::uint32_t message, std::uint64_t epoch) {
  const ExchangePlan& internal = detail::plan_of(plan);
  if (self_recv(internal, message)) {
    // Its send's group stores the epoch into a word in this GPU's memory once the copy is in.
    return detail::wait_in_turn(group, internal, &internal.routes.self->placed[message].epoch,
                                internal.routes.self->placed_id, message, epoch, 1, message);
  }
  const NodeRecvRoute* route = node_recv(internal, message);
  if (route == nullptr) {
    if (detail::wait_in_turn(group, internal, internal.unpack_ready.word(message),
                             internal.unpack_ready.array_id, message, epoch, 1,
                             message) != BlockStatus::ok) {
      return BlockStatus::failed;
    }
    unpack_and_signal(group, internal, message, epoch);
    return BlockStatus::ok;
  }
  const NodePeerRoute& peer = internal.routes.node->peers[route->peer];
  // A peer this rank sends nothing to hears of its free ghosts here, after the start.
  if (peer.pieces_out == 0) {
    if (detail::wait_for_start(group, internal, epoch, message) != BlockStatus::ok) {
      return BlockStatus::failed;
    }
    if (group.thread() == 0) announce_ghosts_free_once(internal, epoch);
  }
  // A peer in lines: each thread waits for its own flagged words. No word counts epochs, so an
  // epoch out of turn is not refused at once: it waits to its deadline, and nothing of another
  // epoch is ever taken.
  if (peer.lines_in != 0) {
    return kernels::detail::take_lines_of(
        group, internal, message, 0, static_cast<std::uint32_t>(internal.recvs[message].element_count()),
        route->pieces, epoch, message);
  }
  // The arrival word is in this rank's memory: the epoch is checked against it, not against the
  // host's pack_start, which would cost every node receive a read across PCIe.
  const std::uint64_t per_epoch = arrival_target(peer, 1) > 0 ? arrival_target(peer, 1) : 1;
  if (detail::wait_in_turn(group, internal, peer.arrival_here, internal.routes.node->arrival_id,
                           route->peer, epoch, per_epoch, message) != BlockStatus::ok) {
    return BlockStatus::failed;
  }
  // A peer that placed its pieces straight into the ghost cells left nothing to unpack, but for
  // the receives this rank takes through its buffer by their shape.
  if (route->through_buffer != 0 || !placed_directly(peer, slot_told(internal, peer, epoch))) {
    const MessageLayout& layout = internal.recvs[message];
    kernels::detail::unpack_elements(group, layout, fields_of(internal), 0,
                                     static_cast<std::uint32_t>(layout.element_count()),
                                     route->data);
  }
  group.sync();
  if (group.thread() == 0) count_piece_work(internal, epoch, route->pieces);
  return BlockStatus::ok;
}

/// True once any device-side wait of this exchange has failed (deadline or abort), whichever
/// group it was. Does not wait; one read per call, of the GPU's own word where the control has
/// one (WaitControl::device_failed), else of the record's line in host memory.
HF_HD inline bool embedded_failed(const DevicePlan& plan) {
  return device_wait_failed(detail::plan_of(plan).control);
}

/// The same decided once for a whole group: its leader reads the record, and every member gets
/// the leader's answer (from_leader is a barrier). This is how a cooperative grid leaves
/// together: every block, the failed ones included, reaches the call (a block that returned
/// early would leave the others in the grid barrier), and all then return or all go on. A
/// failure is recorded before embedded_pack/embedded_unpack return BlockStatus::failed, so a
/// group that failed before the barrier is always seen.
template <ExchangeGroup Group>
HF_HD bool embedded_failed(const Group& group, const DevicePlan& plan) {
  int failed = 0;
  if (group.thread() == 0) failed = embedded_failed(plan) ? 1 : 0;
  return group.from_leader(failed) != 0;
}

/// The group's barrier after exchange `epoch` (its finish, or its members' last unpack), which
/// also decides for the whole group whether it leaves: every member returns BlockStatus::failed
/// when any member passed `status` failed (each its own block's, as the calls of this exchange
/// returned it), else ok. Call it once per epoch, every member, failed or not.
/// It costs the barrier and one read after it. A member that failed stores the epoch into the
/// plan's word before the barrier; the others store nothing. embedded_failed(group, plan) also
/// sees other groups' failures, but puts a read of the failure record and a store of the answer
/// before the barrier, on the path of the member that arrives last.
/// One word serves every epoch: a member past the barrier of `epoch` that fails in exchange
/// epoch + 1 stores epoch + 1, which a slower member reading for `epoch` does not take for its
/// own; and nobody stores epoch + 1 once `epoch` was stored, for every member leaves there.
template <ExchangeGroup Group>
HF_HD BlockStatus embedded_barrier(const Group& group, const DevicePlan& plan,
                                   std::uint64_t epoch, BlockStatus status) {
  const ExchangePlan& internal = detail::plan_of(plan);
  if (status != BlockStatus::ok) {
    notify::store_relaxed_same_side(internal.group_failed_epoch, epoch);
  }
  group.sync();  // orders every failed member's store before every read
  return notify::load_relaxed_same_side(internal.group_failed_epoch) == epoch
             ? BlockStatus::failed
             : BlockStatus::ok;
}

}  // namespace haloflag::kernels
