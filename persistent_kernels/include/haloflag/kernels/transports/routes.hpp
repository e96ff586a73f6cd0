/// @file
/// The route dispatch (docs/transports.md, "Adding a transport"): where a message packed or
/// unpacked whole goes, by the transport that carries it. The one place in the kernels, beside
/// the piece grid's program (piece_grid_steps.hpp), that knows every transport with a device
/// half; the block programs, the bulk kernels and the embedded API ask here, and each
/// transport's own folder holds the rest of its device half.
#pragma once

#include <cstdint>

#include "haloflag/kernels/detail/exchange_plan.hpp"
#include "haloflag/kernels/transports/mpi/mpi_route.hpp"
#include "haloflag/kernels/transports/node/node_route.hpp"
#include "haloflag/kernels/transports/self/self_route.hpp"
#include "haloflag/notify/portability.hpp"

namespace haloflag::kernels {

/// Where send `message` is packed whole: the receiver's buffer (node: the bulk strategies and
/// the embedded API), the rank's own buffer for it (self: the bulk strategies) or this rank's
/// send buffer (mpi).
HF_HD inline std::byte* send_data(const ExchangePlan& plan, std::uint32_t message) {
  if (const NodeSendRoute* node = node_send(plan, message)) return node->target_buffer;
  if (const SelfSendRoute* self = self_send(plan, message)) return self->buffer;
  return mpi_send_place(plan, message);
}

/// Where receive `message` is unpacked from whole.
HF_HD inline const std::byte* recv_data(const ExchangePlan& plan, std::uint32_t message) {
  if (const NodeRecvRoute* node = node_recv(plan, message)) return node->data;
  if (const SelfRecvRoute* self = self_recv(plan, message)) return self->buffer;
  return mpi_recv_place(plan, message);
}

/// Whether the piece grid moves send `message` (its per-message block has nothing to do).
HF_HD inline bool send_in_pieces(const ExchangePlan& plan, std::uint32_t message) {
  return node_send(plan, message) != nullptr || self_send(plan, message) != nullptr;
}

/// Whether the piece grid moves receive `message`.
HF_HD inline bool recv_in_pieces(const ExchangePlan& plan, std::uint32_t message) {
  return node_recv(plan, message) != nullptr || self_recv(plan, message) != nullptr;
}

}  // namespace haloflag::kernels
