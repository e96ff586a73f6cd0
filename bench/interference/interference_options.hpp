// The command line of `interference` (bench/README.md lists every option).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "haloflag/bench/cli_declarations.hpp"
#include "memory_accessor.hpp"
#include "scenario.hpp"

namespace haloflag::bench::interference {

struct InterferenceOptions {
  std::string backend_name = "auto";
  int gpu = -1;  // -1: node-local rank modulo the visible GPUs
  std::string scenario_argument = "all";
  std::string access_argument = "all";
  std::uint64_t min_bytes = 1024;
  std::uint64_t max_bytes = std::uint64_t{64} << 20;
  int size_factor = 2;
  int warmup = 5;
  int iterations = 100;
  double timeout_seconds = 10.0;
  std::uint64_t stop_poll_ns = 1000;
  std::uint64_t p2ab_gap_bytes = std::uint64_t{2} << 20;
  std::uint64_t copy_bytes = std::uint64_t{128} << 20;
  AccessorSettings accessor;
  std::string json_path;

  // Derived from the above.
  std::vector<Scenario> scenarios;
  std::vector<AccessForm> forms;
  std::vector<std::size_t> sizes;  // min_bytes, min_bytes * factor, ... <= max_bytes
};

// Throws CLI::ParseError (CallForHelp included) for bad or contradictory options.
InterferenceOptions parse_interference_options(CLI::App& app, int argc, char** argv);

}  // namespace haloflag::bench::interference
