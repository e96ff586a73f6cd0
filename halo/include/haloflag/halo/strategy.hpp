// The exchange strategies (docs/exchange.md), all run by halo::Exchange.
#pragma once

#include <span>
#include <string_view>

namespace haloflag::halo {

enum class Strategy {
  comb_fused,      // fused pack -> sync -> MPI -> fused unpack -> sync (Comb, Alg. 1)
  comb_graph,      // the same kernels captured once as graphs and replayed (Comb's cuda_graph)
  stream_base,     // one block per message, sync at kernel boundaries, same MPI order
  stream_notify,   // persistent pack + unpack kernels on two streams, flags, state machine
  stacked_notify,  // one cooperative kernel packs and unpacks, flags (§4.2)
  resident,        // pack/unpack kernels stay resident across exchanges: no launch per exchange
  // The caller's own kernel packs and unpacks through the device API
  // (haloflag/kernels/embedded_api.hpp, docs/embedding.md); the Exchange launches nothing.
  embedded,
};

std::string_view to_string(Strategy strategy);
// Throws std::invalid_argument naming the valid choices.
// Accepts every strategy, embedded included.
Strategy parse_strategy(std::string_view name);
// The strategies whose Exchange does the whole exchange itself, the ones benchmarks and strategy
// tests loop over. Not `embedded`: it needs a kernel of the caller's.
std::span<const Strategy> all_strategies();
// True for the strategies driven by flags and the CPU state machine.
bool uses_flags(Strategy strategy);

}  // namespace haloflag::halo
