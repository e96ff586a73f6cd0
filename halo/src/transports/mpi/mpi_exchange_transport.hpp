// Internal: the mpi transport as the Exchange's set-up sees it (exchange_transport.hpp): it
// sizes and cuts the long messages to its peers into pieces (haloflag/halo/mpi_pieces.hpp),
// tells the handshake how, and carries whatever no piece-grid transport does through
// MessageRequests and MpiHostTransport.
#pragma once

#include <memory>

#include "transports/exchange_transport.hpp"

namespace haloflag::halo::detail {

// Every Exchange has one: its piece sizing is collective, even where it then carries nothing.
std::unique_ptr<ExchangeTransport> make_mpi_transport(const TransportSetUp& set_up);

}  // namespace haloflag::halo::detail
