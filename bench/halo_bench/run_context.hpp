// Everything a report says about a run besides the measurements: options, backend, machine,
// workload, model. Complete on rank 0 (the only rank that reports).
#pragma once

#include <optional>
#include <utility>
#include <string>
#include <vector>

#include "bench_options.hpp"
#include "gpu_sharing.hpp"
#include "haloflag/halo/tuning.hpp"
#include "haloflag/bench/backend_choice.hpp"
#include "haloflag/bench/machine_info.hpp"
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
  GpuSharing gpu_sharing;
  // Strategies asked for but not run: their kernels need to run side by side with the peers'
  // (needing_side_by_side), and ranks share a GPU without MPS.
  std::vector<halo::Strategy> left_out;
  // Strategies asked for that cannot run here at all, with why (why_not_here: nccl outside this
  // build, on the host backend, or with ranks sharing a GPU).
  std::vector<std::pair<halo::Strategy, std::string>> not_run;
  // The estimate beside strategies the model leaves out (model::unmodelled_reason): no bound,
  // and the reason.
  ModelEstimate unmodelled_model;
  // With --tuning auto: each tuned variant's name and the order it chose at set-up.
  std::vector<std::pair<std::string, halo::TuningReport>> tuned_orders;
};

}  // namespace haloflag::bench
