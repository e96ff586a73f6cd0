// The JSON report (format "haloflag-halo-bench", version 1; fields in bench/README.md): the
// machine, backend, MPI library, versions, every parameter, and per strategy all samples with
// their summary, the launch shape, the verification verdict and the model's bound.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "run_context.hpp"
#include "strategy_benchmark.hpp"

namespace haloflag::bench {

inline constexpr const char* kReportFormat = "haloflag-halo-bench";
inline constexpr int kReportFormatVersion = 1;

nlohmann::json make_report_json(const RunContext& context,
                                const std::vector<StrategyResult>& results);

}  // namespace haloflag::bench
