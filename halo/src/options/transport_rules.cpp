#include "options/transport_rules.hpp"

#include <string>

#include "haloflag/halo/errors.hpp"
#include "haloflag/halo/strategy.hpp"

namespace haloflag::halo::detail {

// The nccl strategy moves every message through the nccl transport, which has no device route
// for the other strategies' kernels; self is never the caller's to choose.
void check_transport_choice(const ExchangeOptions& options) {
  if (options.transport == Transport::self) {
    throw ConfigError("transport self is not a choice: the Exchange takes it for a rank's "
                      "messages to itself. Use transport auto, mpi, node or nccl");
  }
  if (options.transport == Transport::nccl && options.strategy != Strategy::nccl) {
    throw ConfigError("strategy " + std::string(to_string(options.strategy)) +
                      " needs a device route to every peer (its kernels place and signal each "
                      "message); transport nccl has none: its transfers are NCCL's own, "
                      "stream-ordered. Use strategy nccl, or transport auto, mpi or node");
  }
  const std::string unavailable = strategy_unavailable(options.strategy, options.backend);
  if (!unavailable.empty()) throw ConfigError(unavailable);
  if (options.strategy == Strategy::nccl && options.transport == Transport::node) {
    throw ConfigError("the nccl strategy moves every message through NCCL: transport node does "
                      "not apply (auto, mpi or nccl)");
  }
}

bool all_over_nccl(const ExchangeOptions& options) {
  return options.strategy == Strategy::nccl || options.transport == Transport::nccl;
}

}  // namespace haloflag::halo::detail
