// The timeline trace file: Chrome trace-event JSON (opens in Perfetto or chrome://tracing) with
// one process per rank, one row for its CPU state machine and one row per message for the
// device blocks that pack or unpack it — the picture of the paper's Figs. 2 and 3 for a real
// run. Times are microseconds after the earliest traced start on any rank (the ranks of one node
// share the host's steady clock).
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace haloflag::bench {

struct StrategyTimelines {
  std::string strategy;
  std::vector<std::string> per_rank_json;  // index = rank; a JSON array of timeline_json()s
};

nlohmann::json chrome_trace(const std::vector<StrategyTimelines>& traces);

}  // namespace haloflag::bench
