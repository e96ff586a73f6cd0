/// @file
/// The route dispatch (docs/transports.md, "Adding a transport"): where a message packed or
/// unpacked whole goes, by the transport that carries it. The one place in the kernels, beside
/// the piece grid's program (piece_grid_steps.hpp), that knows every transport with a device
/// half; the block programs, the bulk kernels and the embedded API ask here, and each
/// transport's own folder holds the rest of its device half.
#pragma once

#include <cstdint>

#include "haloflag/kernels/detail/exchange_plan.hpp"
#include "haloflag/kernels/pack_unpack.hpp"
#include "haloflag/kernels/transports/mpi/mpi_route.hpp"
#include "haloflag/kernels/transports/node/node_route.hpp"
#include "haloflag/kernels/transports/self/self_pieces.hpp"
#include "haloflag/kernels/transports/self/self_route.hpp"
#include "haloflag/notify/portability.hpp"

namespace haloflag::kernels {

/// Where send `message` is packed whole: the receiver's buffer (node: the bulk strategies and
/// the embedded API) or this rank's send buffer (mpi). Not for self sends, which have none.
HF_HD inline std::byte* send_data(const ExchangePlan& plan, std::uint32_t message) {
  const NodeSendRoute* route = node_send(plan, message);
  return route != nullptr ? route->target_buffer : mpi_send_place(plan, message);
}

/// Where receive `message` is unpacked from whole.
HF_HD inline const std::byte* recv_data(const ExchangePlan& plan, std::uint32_t message) {
  const NodeRecvRoute* route = node_recv(plan, message);
  return route != nullptr ? route->data : mpi_recv_place(plan, message);
}

/// A bulk pack kernel's share of send `message` (thread `thread` of `threads`): packed into
/// send_data(), or for self copied straight into the ghost cells of its receive.
HF_HD inline void pack_whole(const ExchangePlan& plan, std::uint32_t message, int thread,
                             int threads) {
  if (const SelfSendRoute* self = self_send(plan, message)) {
    return copy_self_message_at(plan, *self, message, thread, threads);
  }
  pack_message_at(plan.sends[message], fields_of(plan), send_data(plan, message), thread,
                  threads);
}

/// A bulk unpack kernel's share of receive `message`: nothing for self, whose send filled it.
HF_HD inline void unpack_whole(const ExchangePlan& plan, std::uint32_t message, int thread,
                               int threads) {
  if (self_recv(plan, message)) return;
  unpack_message_from(plan.recvs[message], fields_of(plan), recv_data(plan, message), thread,
                      threads);
}

/// Whether the piece grid moves send `message` (its per-message block has nothing to do).
HF_HD inline bool send_in_pieces(const ExchangePlan& plan, std::uint32_t message) {
  return node_send(plan, message) != nullptr || self_send(plan, message) != nullptr;
}

/// Whether the piece grid moves receive `message`.
HF_HD inline bool recv_in_pieces(const ExchangePlan& plan, std::uint32_t message) {
  return node_recv(plan, message) != nullptr || self_recv(plan, message);
}

}  // namespace haloflag::kernels
