// Internal: the node transport as the Exchange's set-up sees it (exchange_transport.hpp): it
// finds the node's ranks first, then maps the node's memory and routes the node peers' pieces
// through NodeTransport, and hands the strategy NodeHostTransport.
#pragma once

#include <memory>

#include "transports/exchange_transport.hpp"

namespace haloflag::halo::detail {

// Every Exchange has one, also with transport mpi: the node's ranks check each pair agrees.
std::unique_ptr<ExchangeTransport> make_node_transport(const TransportSetUp& set_up);

}  // namespace haloflag::halo::detail
