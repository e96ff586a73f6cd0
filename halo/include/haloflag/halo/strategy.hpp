/// @file
/// The exchange strategies (docs/exchange.md), all run by halo::Exchange.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "haloflag/notify/backend.hpp"

namespace haloflag::halo {

/// How an Exchange packs, moves and unpacks its messages.
enum class Strategy {
  comb_fused,      ///< fused pack -> sync -> MPI -> fused unpack -> sync (Comb, Alg. 1)
  comb_graph,      ///< the same kernels captured once as graphs and replayed (Comb's cuda_graph)
  stream_base,     ///< one block per message, sync at kernel boundaries, same MPI order
  stream_notify,   ///< persistent pack + unpack kernels on two streams, flags, state machine
  stacked_notify,  ///< one cooperative kernel packs and unpacks, flags (§4.2)
  resident,        ///< pack/unpack kernels stay resident across exchanges: no launch per exchange
  /// The caller's own kernel packs and unpacks through the device API
  /// (haloflag/kernels/embedded_api.hpp, docs/embedding.md); the Exchange launches nothing.
  embedded,
  /// Comb's fused pack into one device buffer per peer, one ncclSend and one ncclRecv per peer in
  /// one NCCL group, the fused unpack, all on one stream with one synchronisation: what a user
  /// without CUDA-aware MPI reaches for (docs/exchange.md). Only in builds that found NCCL (RCCL
  /// on HIP), on a GPU backend, one GPU per rank: strategy_unavailable() says why not.
  nccl,
};

/// The strategy's name.
std::string_view to_string(Strategy strategy);
/// Throws std::invalid_argument naming the valid choices.
/// Accepts every strategy, embedded included.
Strategy parse_strategy(std::string_view name);
/// The strategies whose Exchange does the whole exchange itself in every build and on every
/// backend, the ones benchmarks and strategy tests loop over. Not `embedded`: it needs a kernel
/// of the caller's. Not `nccl`: it needs NCCL in the build and a GPU (available_strategies()).
std::span<const Strategy> all_strategies();
/// Why `strategy` cannot run in this build on `backend`, or "" when it can. Only nccl has
/// conditions: the build found NCCL (RCCL for HIP), and the backend is a GPU one (NCCL moves
/// device memory). An Exchange asked for an unavailable strategy throws ExchangeError with this.
std::string strategy_unavailable(Strategy strategy, notify::Backend backend);
/// all_strategies(), then nccl where it is available in this build on `backend`.
std::vector<Strategy> available_strategies(notify::Backend backend);
/// True for the strategies driven by flags and the CPU state machine.
bool uses_flags(Strategy strategy);

}  // namespace haloflag::halo
