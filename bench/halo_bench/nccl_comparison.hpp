// The nccl strategy in halo_bench: whether it can run in this run, the library behind it, and
// what its row is compared with: comb_fused over the node transport, haloflag's fastest flag
// strategy over node (the baseline a user would pick against what haloflag offers), and the
// plain NCCL program of the same run (what the Exchange adds to NCCL's own steps).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "gpu_sharing.hpp"
#include "haloflag/halo/strategy.hpp"
#include "strategy_benchmark.hpp"

namespace haloflag::bench {

// Why `strategy` cannot run here, or "" when it can: halo::strategy_unavailable (not in this
// build, the host backend), or ranks sharing a GPU, which NCCL refuses.
std::string why_not_here(halo::Strategy strategy, notify::Backend backend,
                         const GpuSharing& sharing);

// The heading's words on the library: its version loaded and built against, and where configure
// found it; or why the strategy is not in this build.
std::string describe_nccl_library();

// comb_fused's median that `result`'s speed-up is taken against: over the same --transport, and
// for nccl (which has no transport of haloflag's) over the node transport where it ran so.
std::optional<double> baseline_median(const std::vector<StrategyResult>& results,
                                      const StrategyResult& result);

struct FastestOverNode {
  std::string name;  // the result's name, e.g. "resident:tuned/node"
  double median_us = 0.0;
};

// haloflag's fastest flag strategy among the results whose exchanges used the node transport
// alone; empty when none did.
std::optional<FastestOverNode> fastest_over_node(const std::vector<StrategyResult>& results);

// The plain NCCL program's result (plain_nccl.hpp) among `results`, or null.
const StrategyResult* plain_nccl_of(const std::vector<StrategyResult>& results);

}  // namespace haloflag::bench
