// Everything one run reports: how it was asked for, what it ran on, and every case measured.
// The table (report_table) and the JSON file (report_json) are two views of it.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "case_result.hpp"
#include "haloflag/bench/backend_choice.hpp"
#include "haloflag/bench/machine_info.hpp"
#include "interference_options.hpp"
#include "memory_accessor.hpp"

namespace haloflag::bench::interference {

struct RunReport {
  std::vector<std::string> command_line;
  InterferenceOptions options;
  BackendChoice backend;
  MachineInfo machine;  // hosts, MPI library, CPU, each rank's GPU
  std::string accessor_description;
  std::optional<GpuFacts> gpu;  // the sender's, which writes
  std::optional<AccessShape> stream_shape;
  std::optional<AccessShape> stacked_shape;
  std::string copies_description;  // empty when the copies scenario is not run
  std::vector<CaseResult> cases;   // in measuring order
};

}  // namespace haloflag::bench::interference
