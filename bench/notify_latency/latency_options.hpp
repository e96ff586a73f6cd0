// notify_latency's command line: what is measured how often, and with which waits.
#pragma once

#include <cstdint>
#include <string>

#include "haloflag/bench/cli_declarations.hpp"

namespace haloflag::bench {

// How the host waits for a device-written flag during round trips.
enum class HostWait {
  spin,   // poll without pause (FlagArray::test), deadline checked every few polls
  yield,  // the library's blocking wait (FlagArray::wait): yields the core between polls
};

const char* to_string(HostWait wait);

struct LatencyOptions {
  std::string backend_name = "auto";   // auto, host, cuda or hip
  int gpu = 0;                         // device index on a GPU backend
  std::uint32_t warmup = 1000;         // samples run first and not counted, per measurement
  std::uint32_t iterations = 10000;    // timed samples per measurement
  std::uint32_t ops_per_sample = 100;  // read+write pairs per timed window (Table 1 rows)
  double timeout_seconds = 10.0;       // deadline of every wait, host and device
  std::uint32_t poll_backoff_ns = 0;   // pause of a GPU thread between polls (library: 200)
  HostWait host_wait = HostWait::spin;
  std::string json_path;  // empty: no JSON report
};

// Declares the options on `app` and parses argv. Throws CLI::ParseError (CLI::CallForHelp for
// --help) for the caller to report.
LatencyOptions parse_latency_options(CLI::App& app, int argc, char** argv);

}  // namespace haloflag::bench
