/// @file
/// The route dispatch (docs/transports.md, "Adding a transport"): where a message packed or
/// unpacked whole by one group goes, by the transport that carries it. The one place in the
/// kernels that knows every transport with a device half; the block programs and the embedded
/// API ask here, and each transport's own folder holds the rest of its device half.
#pragma once

#include <cstdint>

#include "haloflag/kernels/detail/exchange_plan.hpp"
#include "haloflag/kernels/transports/mpi/mpi_route.hpp"
#include "haloflag/kernels/transports/node/node_route.hpp"
#include "haloflag/notify/portability.hpp"

namespace haloflag::kernels {

/// Where send `message` is packed whole: the receiver's buffer (node: the bulk strategies and
/// the embedded API) or this rank's send buffer (mpi).
HF_HD inline std::byte* send_data(const ExchangePlan& plan, std::uint32_t message) {
  const NodeSendRoute* route = node_send(plan, message);
  return route != nullptr ? route->target_buffer : mpi_send_place(plan, message);
}

/// Where receive `message` is unpacked from whole.
HF_HD inline const std::byte* recv_data(const ExchangePlan& plan, std::uint32_t message) {
  const NodeRecvRoute* route = node_recv(plan, message);
  return route != nullptr ? route->data : mpi_recv_place(plan, message);
}

/// Whether the piece grid moves send `message` (its per-message block has nothing to do).
HF_HD inline bool send_in_pieces(const ExchangePlan& plan, std::uint32_t message) {
  return node_send(plan, message) != nullptr;
}

/// Whether the piece grid moves receive `message`.
HF_HD inline bool recv_in_pieces(const ExchangePlan& plan, std::uint32_t message) {
  return node_recv(plan, message) != nullptr;
}

}  // namespace haloflag::kernels
