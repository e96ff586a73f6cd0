// MPI ping-pong between two ranks over a range of sizes: the one-way time per size (half a
// round trip; median and percentiles over iterations after a warm-up), and the postal fit on
// each side of the eager/rendezvous switch.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "haloflag/model/postal_fit.hpp"
#include "run_info.hpp"
#include "sample_summary.hpp"

namespace haloflag::model::calibration {

struct PingPongOptions {
  std::vector<std::int64_t> sizes;  // strictly increasing, each >= 1
  int iterations = 100;
  int warmup = 10;
  int rank_a = 0;  // times the round trips
  int rank_b = 1;
  std::optional<std::int64_t> threshold;  // given eager threshold; detected when absent
  bool quick = false;                     // recorded only
};

// Powers of two from `min_bytes` to `max_bytes` (both included when powers of two).
std::vector<std::int64_t> power_of_two_sizes(std::int64_t min_bytes, std::int64_t max_bytes);

struct SizeTiming {
  std::int64_t bytes = 0;
  SampleSummary one_way_seconds;
};

struct PingPongResult {
  PingPongOptions options;
  RunInfo run;
  std::vector<SizeTiming> timings;
  ProtocolSwitchFit fit;
};

// Collective over `comm` (ranks other than the pair wait). Every rank returns the same result.
// Throws std::invalid_argument for bad options (naming the value), MpiError for MPI failures.
PingPongResult measure_pingpong(MPI_Comm comm, const PingPongOptions& options);

}  // namespace haloflag::model::calibration
