// Aggregate bandwidth of 1..k concurrent flows, to fit the K-model's R_Cb and R_Ci.
//
// With P = ranks / 2 >= 2 pairs, flow i is rank i sending to rank i + P (launch so that the two
// halves sit on the two ends of the link to measure: two nodes, or two sockets), and f flows are
// f pairs sending at once. With one pair (2 ranks) real concurrency cannot be measured: f flows
// are then emulated by f windows of messages in flight from the one pair, and the result says so
// (flows_emulated); its R_Ci is a stand-in, not a measurement of additional processes.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <vector>

#include "haloflag/model/bandwidth_fit.hpp"
#include "run_info.hpp"
#include "sample_summary.hpp"

namespace haloflag::model::calibration {

struct ConcurrentOptions {
  std::vector<std::int64_t> sizes;  // message sizes, strictly increasing, each >= 1
  int max_flows = 0;  // 0: every pair (or 4 emulated flows with one pair)
  int window = 8;     // messages in flight per flow per iteration
  int iterations = 50;
  int warmup = 5;
  bool quick = false;  // recorded only
};

struct FlowMeasurement {
  int flows = 0;
  int messages_per_flow = 0;     // per iteration
  SampleSummary seconds;         // per iteration, slowest flow
  SampleSummary bandwidth;       // aggregate B/s per iteration
};

struct SizeBandwidth {
  std::int64_t bytes = 0;
  std::vector<FlowMeasurement> points;  // flows = 1, 2, ...
  BandwidthFit fit;                     // over the median bandwidths
};

struct ConcurrentResult {
  ConcurrentOptions options;
  RunInfo run;
  int pairs_available = 0;
  bool flows_emulated = false;
  std::vector<SizeBandwidth> sizes;
};

// Collective over `comm`; every rank returns the same result. Throws std::invalid_argument for
// bad options (naming the value), MpiError for MPI failures.
ConcurrentResult measure_concurrent_bandwidth(MPI_Comm comm, const ConcurrentOptions& options);

}  // namespace haloflag::model::calibration
