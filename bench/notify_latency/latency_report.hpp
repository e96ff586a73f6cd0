// Everything one run reports: what was asked, where it ran, and what was measured. The table
// and the JSON report are two views of this.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "device_side.hpp"
#include "haloflag/bench/backend_choice.hpp"
#include "haloflag/bench/machine_facts.hpp"
#include "latency_measurements.hpp"
#include "latency_options.hpp"
#include "latency_targets.hpp"

namespace haloflag::bench {

struct LatencyReport {
  std::vector<std::string> command_line;
  LatencyOptions options;
  BackendChoice backend;
  MachineFacts machine;
  std::string device_description;  // DeviceSide::describe()
  std::string device_clock;        // DeviceSide::clock_name()
  std::optional<GpuFacts> gpu;
  LatencyResults results;  // filled once measured
  TargetVerdict targets;
};

}  // namespace haloflag::bench
