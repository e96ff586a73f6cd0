/// @file
/// What the self transport's device half does (self_route.hpp): copy a send's cells into the
/// ghost cells of the receive it pairs with, by pieces over the piece grid's blocks, whole by one
/// embedded group, or whole by the threads of a bulk pack kernel.
#pragma once

#include <cstdint>

#include "haloflag/kernels/block_waits.hpp"
#include "haloflag/kernels/detail/exchange_plan.hpp"
#include "haloflag/kernels/device_times.hpp"
#include "haloflag/kernels/group_moves.hpp"
#include "haloflag/kernels/pack_unpack.hpp"
#include "haloflag/kernels/piece_grid.hpp"
#include "haloflag/kernels/transports/self/self_route.hpp"
#include "haloflag/notify/portability.hpp"
#include "haloflag/notify/system_atomics.hpp"

namespace haloflag::kernels {
namespace detail {

/// Elements [first, end) of self send `message` copied by `group` into its receive's cells,
/// then the group's barrier; thread 0 stamps the traces and fences, so that whatever count or
/// word it writes next publishes the copy.
template <ExchangeGroup Group>
HF_HD void copy_self_part(const Group& group, const ExchangePlan& plan, std::uint32_t message,
                          std::uint32_t recv, std::uint32_t first, std::uint32_t end) {
  if (group.thread() == 0 && first == 0) {
    stamp_device_time(plan.times.send_slot(message, SendTime::pack_begin));
  }
  const FieldSet& fields = fields_of(plan);
  move_elements(group, plan.sends[message], fields, first, end, plan.recvs[recv], &fields,
                nullptr);
  group.sync();
  if (group.thread() == 0) {
    // Traces: each piece's block stamps when its part is in place; the last one stays.
    stamp_device_time(plan.times.send_slot(message, SendTime::packed));
    stamp_device_time(plan.times.recv_slot(recv, RecvTime::ready_seen));
    stamp_device_time(plan.times.recv_slot(recv, RecvTime::unpacked));
    notify::fence_release_system();
  }
}

}  // namespace detail

/// The piece grid's self work: block `block` of `blocks` copies self pieces block,
/// block + blocks, ... and counts each in the grid's work. Nothing waits: the rank's own cells
/// are ready at the start, and its ghost cells free.
template <ExchangeGroup Group>
HF_HD void self_pieces(const Group& group, const ExchangePlan& plan, std::uint32_t block,
                       std::uint32_t blocks, std::uint64_t epoch) {
  const SelfPlan* self = plan.routes.self;
  if (self == nullptr) return;
  for (std::uint32_t i = block; i < self->piece_count; i += blocks) {
    const SelfPiece piece = self->pieces[i];
    detail::copy_self_part(group, plan, piece.send, self->sends[piece.send].recv, piece.first,
                           piece.first + piece.count);
    if (group.thread() == 0) count_piece_work(plan, epoch, 1);
  }
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

/// A bulk pack kernel's threads copy self send `message` whole: thread `thread` of `threads`,
/// spread over the message as pack_message_at spreads them.
HF_HD inline void copy_self_message_at(const ExchangePlan& plan, const SelfSendRoute& route,
                                       std::uint32_t message, int thread, int threads) {
  const MessageLayout& source = plan.sends[message];
  const MessageLayout& target = plan.recvs[route.recv];
  const FieldSet& fields = fields_of(plan);
  const auto cells = static_cast<std::uint32_t>(source.cells_per_variable());
  detail::move_elements_between(
      detail::FieldSide{&source, &fields, cells}, detail::FieldSide{&target, &fields, cells},
      source, detail::smaller(source.alignment, detail::trusted_alignment(fields)), 0,
      detail::first_element(source, thread, threads),
      static_cast<std::uint32_t>(source.element_count()), static_cast<std::uint32_t>(threads));
}

}  // namespace haloflag::kernels
