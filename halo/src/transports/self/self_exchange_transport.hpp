// Internal: the self transport as the Exchange's set-up sees it (exchange_transport.hpp): where
// a rank sends itself messages it makes SelfTransport, whose route joins the piece grid, and
// hands it to the strategy as its host half.
#pragma once

#include <memory>

#include "transports/exchange_transport.hpp"

namespace haloflag::halo::detail {

// Null where MPI carries a rank's messages to itself (transport mpi) or NCCL every peer's.
std::unique_ptr<ExchangeTransport> make_self_transport(const TransportSetUp& set_up);

}  // namespace haloflag::halo::detail
