// Internal: the rules of ExchangeOptions::transport beside the strategy, which the set-up and
// the transports' constructor functions share: which choices are refused, and when NCCL takes
// every peer.
#pragma once

#include "haloflag/halo/exchange_options.hpp"

namespace haloflag::halo::detail {

// ConfigError naming why the strategy and transport cannot run together here. Checked on every
// rank before anything else is set up, so every rank refuses alike.
void check_transport_choice(const ExchangeOptions& options);

// Every peer's messages go through NCCL (Strategy::nccl, or transport nccl).
bool all_over_nccl(const ExchangeOptions& options);

}  // namespace haloflag::halo::detail
