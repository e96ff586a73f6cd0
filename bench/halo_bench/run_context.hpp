// Everything a report says about a run besides the measurements: options, backend, machine,
// workload, model. Complete on rank 0 (the only rank that reports).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "backend_choice.hpp"
#include "bench_options.hpp"
#include "machine_info.hpp"
#include "message_summary.hpp"
#include "model_estimate.hpp"
#include "workload.hpp"

namespace haloflag::bench {

struct RunContext {
  BenchOptions options;
  std::vector<std::string> command_line;  // argv as given
  BackendChoice backend;
  MachineInfo machine;
  Workload workload;
  MessageSummary messages;
  ModelEstimate model;
  // The bound for exchanges that used the node transport (model::TransportChoice::node): the
  // MPI bound does not bound them. Empty when every --transport is mpi.
  std::optional<ModelEstimate> node_model;
  std::string unverifiable_reason;  // empty when the config's exchanges can be verified
};

// A path as a reader wants to see it: relative to the working directory when it lies below
// it (comb_configs/x.cfg from the repository root), otherwise as it is.
inline std::string display_path(const std::string& path) {
  std::error_code error;
  const std::filesystem::path relative = std::filesystem::proximate(path, error);
  if (error || relative.empty() || *relative.begin() == "..") return path;
  return relative.string();
}

}  // namespace haloflag::bench
