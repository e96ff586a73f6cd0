// Builds without NCCL (or RCCL): the nccl transport is not there. Exchange's set-up refuses it
// first with strategy_unavailable()'s reason; this only keeps the factory's symbol.
#include "haloflag/halo/errors.hpp"
#include "haloflag/halo/strategy.hpp"
#include "transports/nccl/nccl_host_transport.hpp"

namespace haloflag::halo::detail {

std::unique_ptr<HostTransport> make_nccl_host_transport(MPI_Comm, PeerSpans, std::chrono::nanoseconds,
                                                   ExchangeResources&, TimelineRecorder&,
                                                   void*) {
  throw ExchangeError(ErrorKind::config,
                      strategy_unavailable(Strategy::nccl, notify::Backend::cuda));
}

}  // namespace haloflag::halo::detail
