/// @file
/// What the self transport's device half does (self_route.hpp): copy a send's cells into the
/// ghost cells of the receive it pairs with, by pieces over the piece grid's blocks, or whole by
/// one embedded group.
#pragma once

#include <cstdint>

#include "haloflag/kernels/block_waits.hpp"
#include "haloflag/kernels/detail/exchange_plan.hpp"
#include "haloflag/kernels/device_times.hpp"
#include "haloflag/kernels/group_moves.hpp"
#include "haloflag/kernels/piece_grid.hpp"
#include "haloflag/kernels/sent_cell_updates.hpp"
#include "haloflag/kernels/transports/self/self_route.hpp"
#include "haloflag/notify/portability.hpp"
#include "haloflag/notify/system_atomics.hpp"

namespace haloflag::kernels {
namespace detail {

/// The fields of the exchange in progress, by their entry in the plan's field bank, in device
/// memory: the piece grid's plan is always an Exchange's, which has one. A pointer that might be
/// the kernel's own plan.fields would make the compiler copy the whole plan into each thread's
/// local memory.
/// Null without self messages, which then costs the grid no read of the slot.
HF_HD inline const FieldSet* banked_fields(const ExchangePlan& plan) {
  if (plan.routes.self == nullptr) return nullptr;
  return plan.field_bank + *static_cast<const volatile std::uint32_t*>(plan.field_slot);
}

/// Elements [first, end) of self send `message` copied by an embedded group into its receive's
/// cells (each updated by `update` on the way: sent_cell_updates.hpp), then, with `published`,
/// the group's barrier, and thread 0 stamps the traces and fences, so that whatever count or
/// word it writes next publishes the copy. Only this GPU reads the copy, so the fence is at
/// device scope: a system one would first wait for the bus, on the copying block's path to the
/// rest of its start. Without `published` thread 0 stamps once its own part is out: a copy that
/// only the caller's grid barrier publishes (the whole exchange in the caller's kernel) needs
/// neither barrier nor fence, which would hold the copying block on the exchange's path.
template <ExchangeGroup Group, class Update = NoCellUpdate>
HF_HD void copy_self_part(const Group& group, const ExchangePlan& plan, std::uint32_t message,
                          std::uint32_t recv, std::uint32_t first, std::uint32_t end,
                          const Update& update = {}, bool published = true) {
  if (group.thread() == 0 && first == 0) {
    stamp_device_time(plan.times.send_slot(message, SendTime::pack_begin));
  }
  // The caller's plan may have no field bank (DevicePlan::with_fields).
  const FieldSet& fields = fields_of(plan);
  move_sent_elements(group, plan.sends[message], fields, first, end, plan.recvs[recv], &fields,
                     nullptr, update);
  if (published) group.sync();
  if (group.thread() == 0) {
    stamp_device_time(plan.times.send_slot(message, SendTime::packed));
    stamp_device_time(plan.times.recv_slot(recv, RecvTime::ready_seen));
    stamp_device_time(plan.times.recv_slot(recv, RecvTime::unpacked));
    if (published) notify::fence_release_same_side();
  }
}

}  // namespace detail

/// The self pieces of the piece grid's count of send pieces.
HF_HD inline std::uint32_t self_piece_count(const ExchangePlan& plan) {
  return plan.routes.self != nullptr ? plan.routes.self->piece_count : 0;
}

/// Where self piece `j` goes: the ghost cells of `fields` (the exchange's own) of the receive it
/// fills. Nothing to wait for: the rank's own cells are ready at the start, and its ghost cells
/// free.
HF_HD inline detail::SendPiece self_send_piece(const ExchangePlan& plan, std::uint32_t j,
                                               const FieldSet* fields) {
  const SelfPlan& self = *plan.routes.self;
  const SelfPiece piece = self.pieces[j];
  return {piece.send,  piece.first, piece.first + piece.count,
          &plan.recvs[self.sends[piece.send].recv], fields, nullptr};
}

/// After the group copied self piece `piece` (thread 0): traces, then the fence that publishes
/// the copy with the grid's count of its work (device scope, as copy_self_part's: the block
/// completing the count publishes the whole grid's work to the host with its own release).
HF_HD inline void self_send_piece_moved(const ExchangePlan& plan,
                                        const detail::SendPiece& piece, std::uint64_t epoch) {
  const std::uint32_t recv = plan.routes.self->sends[piece.message].recv;
  stamp_device_time(plan.times.recv_slot(recv, RecvTime::ready_seen));
  stamp_device_time(plan.times.recv_slot(recv, RecvTime::unpacked));
  notify::fence_release_same_side();
  count_piece_work(plan, epoch, 1);
}

/// An embedded group's self send `message`, whole: copied, then its receive's placed word
/// shows `epoch`, and its pieces count in the grid's work.
template <ExchangeGroup Group>
HF_HD void place_self_message(const Group& group, const ExchangePlan& plan,
                              const SelfSendRoute& route, std::uint32_t message,
                              std::uint64_t epoch) {
  const auto elements = static_cast<std::uint32_t>(plan.sends[message].element_count());
  detail::copy_self_part(group, plan, message, route.recv, 0, elements);
  if (group.thread() == 0) {
    notify::store_release_system(&plan.routes.self->placed[route.recv].epoch, epoch);
    count_piece_work(plan, epoch, route.pieces);
  }
}

}  // namespace haloflag::kernels
