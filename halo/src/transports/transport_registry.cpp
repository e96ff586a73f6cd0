#include "transports/transport_registry.hpp"

#include "transports/mpi/mpi_exchange_transport.hpp"
#include "transports/nccl/nccl_exchange_transport.hpp"
#include "transports/node/node_exchange_transport.hpp"
#include "transports/self/self_exchange_transport.hpp"

namespace haloflag::halo::detail {

// The order is the order of their steps and of the strategy's host halves: node finds the
// node's ranks before mpi chooses its peers by them; nccl, where it takes part, describes every
// peer last. (mpi carries whatever the piece grid's transports do not, whatever their place.)
std::span<const TransportEntry> transport_registry() {
  static constexpr TransportEntry kTransports[] = {
      {"self", &make_self_transport},
      {"node", &make_node_transport},
      {"mpi", &make_mpi_transport},
      {"nccl", &make_nccl_transport},
  };
  return kTransports;
}

}  // namespace haloflag::halo::detail
