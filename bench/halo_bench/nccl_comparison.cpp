#include "nccl_comparison.hpp"

#include <cstdlib>

#include "haloflag/halo/nccl_library.hpp"

namespace haloflag::bench {

std::string why_not_here(halo::Strategy strategy, notify::Backend backend,
                         const GpuSharing& sharing) {
  std::string why = halo::strategy_unavailable(strategy, backend);
  if (why.empty() && strategy == halo::Strategy::nccl && sharing.shared()) {
    why = "NCCL takes one GPU per rank, and " + std::to_string(sharing.ranks_per_gpu) +
          " ranks share a GPU here";
  }
  return why;
}

std::string describe_nccl_library() {
  const halo::NcclLibrary library = halo::nccl_library();
  if (!library.built) return "the nccl strategy is not in this build: " + library.note;
  const char* nvls = std::getenv("NCCL_NVLS_ENABLE");
  return library.name + " " + library.runtime_version + " loaded, built against " +
         library.note + "; NCCL_NVLS_ENABLE=" + (nvls != nullptr ? nvls : "(unset)");
}

std::optional<double> baseline_median(const std::vector<StrategyResult>& results,
                                      const StrategyResult& result) {
  if (result.strategy != halo::Strategy::nccl) {
    return comb_fused_median(results, result.transport);
  }
  std::optional<double> any;
  for (const StrategyResult& other : results) {
    if (other.strategy != halo::Strategy::comb_fused || !other.summary_us) continue;
    if (other.node_links > 0 && other.mpi_links == 0) return other.summary_us->median;
    if (!any) any = other.summary_us->median;
  }
  return any;
}

std::optional<FastestOverNode> fastest_over_node(const std::vector<StrategyResult>& results) {
  std::optional<FastestOverNode> fastest;
  for (const StrategyResult& result : results) {
    if (!halo::uses_flags(result.strategy) || !result.summary_us) continue;
    if (result.node_links == 0 || result.mpi_links > 0) continue;
    if (!fastest || result.summary_us->median < fastest->median_us) {
      fastest = FastestOverNode{result.name, result.summary_us->median};
    }
  }
  return fastest;
}

const StrategyResult* plain_nccl_of(const std::vector<StrategyResult>& results) {
  for (const StrategyResult& result : results) {
    if (result.plain_nccl) return &result;
  }
  return nullptr;
}

}  // namespace haloflag::bench
