#include "haloflag/halo/strategy.hpp"

#include <array>
#include <stdexcept>
#include <string>

#include "parse_named.hpp"

namespace haloflag::halo {

namespace {
constexpr std::array kStrategies{Strategy::comb_fused,    Strategy::comb_graph,
                                 Strategy::stream_base,   Strategy::stream_notify,
                                 Strategy::stacked_notify, Strategy::resident};
// Parsed and named like the others, but not in all_strategies(): it needs the caller's kernel.
constexpr std::array kEveryStrategy{Strategy::comb_fused,     Strategy::comb_graph,
                                    Strategy::stream_base,    Strategy::stream_notify,
                                    Strategy::stacked_notify, Strategy::resident,
                                    Strategy::embedded};
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
  }
  return "unknown";
}

Strategy parse_strategy(std::string_view name) {
  return detail::parse_named<Strategy>(name, kEveryStrategy, "strategy");
}

std::span<const Strategy> all_strategies() { return kStrategies; }

bool uses_flags(Strategy strategy) {
  return strategy == Strategy::stream_notify || strategy == Strategy::stacked_notify ||
         strategy == Strategy::resident || strategy == Strategy::embedded;
}

}  // namespace haloflag::halo
