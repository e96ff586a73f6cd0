// Builds without NCCL (or RCCL): the nccl strategy is not there. Exchange's set-up refuses it
// first with strategy_unavailable()'s reason; this only keeps the factory's symbol.
#include "haloflag/halo/errors.hpp"
#include "strategies/exchange_strategy.hpp"

namespace haloflag::halo::detail {

std::unique_ptr<ExchangeStrategy> make_nccl_strategy(StrategyContext, MPI_Comm, PeerSpans,
                                                     std::chrono::nanoseconds) {
  throw ExchangeError(ErrorKind::config, strategy_unavailable(Strategy::nccl, notify::Backend::cuda));
}

}  // namespace haloflag::halo::detail
