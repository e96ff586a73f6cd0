// Internal: the nccl transport as the Exchange's set-up sees it (exchange_transport.hpp): under
// Strategy::nccl it takes every peer, lays each peer's messages together in the buffers
// (peer_spans.hpp) and hands the strategy the NCCL communicator's host half.
#pragma once

#include <memory>

#include "transports/exchange_transport.hpp"

namespace haloflag::halo::detail {

// Null unless every peer goes through NCCL.
std::unique_ptr<ExchangeTransport> make_nccl_transport(const TransportSetUp& set_up);

}  // namespace haloflag::halo::detail
