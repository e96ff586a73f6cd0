// The human report on rank 0: what ran where, then one table row per strategy as it finishes.
#pragma once

#include <iosfwd>
#include <optional>
#include <vector>

#include "nccl_comparison.hpp"
#include "run_context.hpp"
#include "strategy_benchmark.hpp"

namespace haloflag::bench {

// Backend, ranks, workload, messages, MPI library, timing method, model source, GPU bindings.
void print_run_heading(std::ostream& out, const RunContext& context);

void print_table_heading(std::ostream& out);

// The model estimate that bounds `result`: the node transport's when its exchange used it.
const ModelEstimate& model_for(const RunContext& context, const StrategyResult& result);

// The strategy's predicted time for the transports its exchanges took, with the run's GPU sharing.
RowPrediction prediction_for(const RunContext& context, const StrategyResult& result);

// `baseline_median_us`: comb_fused's median from this run, when it was measured.
void print_table_row(std::ostream& out, const StrategyResult& result,
                     std::optional<double> baseline_median_us, const ModelEstimate& model,
                     const RowPrediction& predicted);

// Under the nccl row: its median against haloflag's fastest flag strategy over node.
void print_fastest_over_node(std::ostream& out, const StrategyResult& nccl,
                             const std::optional<FastestOverNode>& fastest);

// Under the nccl row: its median against the plain NCCL program's of the same run.
void print_against_plain_nccl(std::ostream& out, const StrategyResult& nccl,
                              const StrategyResult* plain);

// Verification verdicts and failures, and the model's notes.
void print_run_footer(std::ostream& out, const RunContext& context,
                      const std::vector<StrategyResult>& results);

}  // namespace haloflag::bench
