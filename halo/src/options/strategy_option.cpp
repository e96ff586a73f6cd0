#include "haloflag/halo/strategy.hpp"

#include <array>
#include <stdexcept>
#include <string>

#include "haloflag/halo/nccl_library.hpp"
#include "parse_named.hpp"

namespace haloflag::halo {

namespace {
constexpr std::array kStrategies{Strategy::comb_fused,    Strategy::comb_graph,
                                 Strategy::stream_base,   Strategy::stream_notify,
                                 Strategy::stacked_notify, Strategy::resident};
// Parsed and named like the others, but not in all_strategies(): embedded needs the caller's
// kernel, nccl NCCL and a GPU.
constexpr std::array kEveryStrategy{Strategy::comb_fused,     Strategy::comb_graph,
                                    Strategy::stream_base,    Strategy::stream_notify,
                                    Strategy::stacked_notify, Strategy::resident,
                                    Strategy::embedded,       Strategy::nccl};
}  // namespace

std::string_view to_string(Strategy strategy) {
  switch (strategy) {
    case Strategy::comb_fused: return "comb_fused";
    case Strategy::comb_graph: return "comb_graph";
    case Strategy::stream_base: return "stream_base";
    case Strategy::stream_notify: return "stream_notify";
    case Strategy::stacked_notify: return "stacked_notify";
    case Strategy::resident: return "resident";
    case Strategy::embedded: return "embedded";
    case Strategy::nccl: return "nccl";
  }
  return "unknown";
}

Strategy parse_strategy(std::string_view name) {
  return detail::parse_named<Strategy>(name, kEveryStrategy, "strategy");
}

std::span<const Strategy> all_strategies() { return kStrategies; }

std::string strategy_unavailable(Strategy strategy, notify::Backend backend) {
  if (strategy != Strategy::nccl) return {};
  const NcclLibrary library = nccl_library();
  if (!library.built) return "nccl is not in this build: " + library.note;
  if (backend == notify::Backend::host) {
    return "nccl needs a GPU backend: " + library.name +
           " moves device memory, the host backend has none";
  }
  if (!notify::backend_compiled(backend)) {
    return "nccl: backend " + std::string(notify::to_string(backend)) +
           " is not compiled into this build";
  }
  return {};
}

std::vector<Strategy> available_strategies(notify::Backend backend) {
  std::vector<Strategy> strategies(kStrategies.begin(), kStrategies.end());
  if (strategy_unavailable(Strategy::nccl, backend).empty()) strategies.push_back(Strategy::nccl);
  return strategies;
}

bool uses_flags(Strategy strategy) {
  return strategy == Strategy::stream_notify || strategy == Strategy::stacked_notify ||
         strategy == Strategy::resident || strategy == Strategy::embedded;
}

}  // namespace haloflag::halo
