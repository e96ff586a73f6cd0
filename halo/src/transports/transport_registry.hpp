// Internal: every transport an Exchange can use, through one constructor function each
// (docs/transports.md, "Adding a transport"). The set-up asks each, in this order, for the
// part it plays with these options; the order is the order of their steps.
#pragma once

#include <memory>
#include <span>
#include <string_view>

#include "transports/exchange_transport.hpp"

namespace haloflag::halo::detail {

struct TransportEntry {
  std::string_view name;
  // Null when the transport has no part in this Exchange (nccl without Strategy::nccl, ...).
  std::unique_ptr<ExchangeTransport> (*make)(const TransportSetUp&);
};

std::span<const TransportEntry> transport_registry();

}  // namespace haloflag::halo::detail
