// The prediction's terms from calibration results (docs/model.md, "Prediction per strategy"):
// launch and flag times from a notify_latency report, the fused kernels from the pack/unpack
// table, and each strategy's fixed cost from a halo_bench report of an exchange of tiny messages
// (the probe): its measured median less what the schedule charges its data.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "haloflag/model/machine_params.hpp"

namespace haloflag::model::calibration {

// From a notify_latency report ("haloflag-notify-latency"): medians of the empty kernel's and the
// one-node graph's launch + synchronisation, and half the host/GPU flag round trip.
struct LaunchFlagTerms {
  std::string source;
  std::string gpu;
  bool emulated = false;  // the host backend's report: CPU threads, not a GPU
  bool launches_measured = true;  // else a round trip stands in for the launches
  double launch_sync = 0.0;
  double graph_launch_sync = 0.0;
  double host_flag = 0.0;
};

// From a halo_bench report: the config it ran, its ranks per GPU, and the median of every
// untuned strategy per transport used. A config whose path does not exist here, but whose file
// name lies beside the report, is that one: a calibration folder moved whole (a published one)
// keeps its probe and config together.
struct ExchangeProbe {
  struct Row {
    std::string strategy;
    std::string transport;  // "mpi" or "node"
    double median = 0.0;    // s
  };
  std::string source;
  std::string config_file;
  int ranks_per_gpu = 1;
  std::vector<Row> rows;
};

// Both throw ParamsError naming the file and key for a file that is not such a report.
LaunchFlagTerms read_launch_flag_terms(const std::filesystem::path& path);
ExchangeProbe read_exchange_probe(const std::filesystem::path& path);

// Sets params.schedule from the terms and the fused kernels; with a probe, the fixed cost of every
// strategy and transport it ran: median minus the predicted data phases of its config (read from
// `probe.config_file`), at least 0 (a clamp is noted). Notes go to `notes`. Throws
// std::invalid_argument when a needed input is missing.
// `mpi_copy`: the bulk exchange's fit, when measured (else the postal sets stand in).
void add_schedule(MachineParams& params, const LaunchFlagTerms& terms, const FusedKernelTimes& fused,
                  const std::optional<PostalParams>& mpi_copy, const ExchangeProbe* probe,
                  std::vector<std::string>& notes);

// Sets params.schedule->node_grid from halo_bench reports over node at several sizes (at least
// 2 configs): for each flag strategy with a fixed cost over node, its median less that cost
// against the bytes of the busiest rank's busier direction (times the ranks per GPU), fitted as
// bytes / bandwidth, each point weighted by its median's inverse square. Throws
// std::invalid_argument when params has no schedule, or no strategy has 2 usable sizes; notes
// each fit and every strategy left out.
void add_node_grid(MachineParams& params, const std::vector<ExchangeProbe>& probes,
                   std::vector<std::string>& notes);

}  // namespace haloflag::model::calibration
