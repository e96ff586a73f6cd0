// halo_bench's command line. Every rank parses the same argv the same way, so a bad option is
// found by all of them at once and no rank is left waiting in a collective.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "haloflag/bench/cli_declarations.hpp"
#include "haloflag/halo/exchange_options.hpp"
#include "haloflag/halo/index3.hpp"
#include "haloflag/halo/strategy.hpp"
#include "haloflag/halo/transport.hpp"
#include "haloflag/kernels/launch_settings.hpp"
#include "haloflag/notify/control_block.hpp"

namespace haloflag::bench {

// Comb-style geometry (as haloflag_gen_config takes it, with the shipped configs' defaults).
struct GeometryArguments {
  halo::Index3 size{200, 200, 200};
  std::optional<halo::RankGrid> divide;  // empty: chosen for the number of ranks
  std::array<bool, 3> periodic{true, true, true};
  halo::Index3 ghost{1, 1, 1};
  int vars = 3;
  int element_bytes = 8;  // 4: single precision
  bool faces_only = false;
};

struct BenchOptions {
  std::string config_path;          // --config; empty: geometry or the default workload
  bool geometry_given = false;      // --size was given
  bool element_bytes_given = false; // --element-bytes was given (it resizes a config's messages)
  GeometryArguments geometry;
  std::vector<halo::Strategy> strategies;  // in all_strategies() order, then nccl; no repeats
  std::string strategy_argument = "all";   // as given, for the report
  std::string backend_name = "auto";       // auto, host, cuda or hip
  std::vector<halo::Transport> transports{halo::Transport::automatic};  // each strategy over each
  std::string transport_argument = "auto";  // as given, for the report
  int node_size = 0;                        // ranks per node for the node transport; 0: the host's
  int warmup = 20;
  int iterations = 200;
  int rounds = 5;                   // rounds over the strategies in rotation; <= iterations
  int verify = 5;                   // verified exchanges before timing
  bool verify_each = false;         // verify every timed exchange too (outside its timed interval)
  int drift_window = 1000;          // drift: median of the first and last this many timed exchanges
  double progress_seconds = 10.0;   // a progress line on stderr this often; 0: none
  double timeout_seconds = 30.0;    // deadline of every wait inside an exchange
  std::string idle_exit = "default";  // resident kernels' idle window: microseconds, never, default
  double idle_gap_us = 0;           // a pause before each timed exchange, outside its interval
  std::string json_path = "halo_bench.json";  // empty: no JSON file
  std::string params_path;          // model parameter file; empty: choose_params decides
  int gpu = -1;                     // -1: by node-local rank
  // The Exchange's orders of work, launch shapes and MPI details (--node-mapping,
  // --mpi-requests, --mpi-piece-bytes, --piece-transfer, the thread and block counts,
  // --long-message-bytes, --long-receives, --long-sends): the library's defaults unless given.
  // Its poll_backoff comes from poll_backoff_ns.
  halo::AdvancedOptions advanced;
  bool tune = false;  // --tuning auto: each flag strategy also with its order tuned at set-up
  std::int64_t poll_backoff_ns = haloflag::notify::kDefaultPollBackoff.count();
  int trace_exchanges = 50;    // traced exchanges per strategy for the phase breakdown; 0: none
  std::string trace_path;      // Chrome trace file; empty: none
  int trace_kept = 3;          // exchanges per strategy and rank written to the trace file
};

// Declares the options on `app`, parses argv and checks what CLI11 cannot (triples, strategy
// names). Throws CLI::ParseError (CLI::CallForHelp for --help) for the caller to report.
BenchOptions parse_bench_options(CLI::App& app, int argc, char** argv);

}  // namespace haloflag::bench
