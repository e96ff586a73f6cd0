// What haloflag_calibrate_node measures on a GPU (the GPU code lives in bench/node_calibration:
// the model knows no GPU), and the node transport terms fitted from it: the kernel copy of n bytes
// between device buffers, latency + n / bandwidth, and the one-way latency of a flag.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "haloflag/model/link_params.hpp"
#include "haloflag/model/postal_fit.hpp"
#include "sample_summary.hpp"

namespace haloflag::model::calibration {

struct NodeCalibrationOptions {
  int gpu = 0;
  std::vector<std::int64_t> sizes;  // copy sizes, strictly increasing
  int iterations = 100;             // timed launches per size
  int warmup = 10;                  // untimed launches per size first
  int copies_per_launch = 32;       // copies in the long launch (the short one makes one)
  int threads = 1024;               // threads of the one copying block
  int flag_samples = 200;
  int round_trips_per_sample = 100;
  int flag_warmup_samples = 10;
  std::uint32_t poll_backoff_ns = 0;
  double timeout_seconds = 10.0;  // deadline of every flag wait
  bool quick = false;
};

struct NodeCopyTiming {
  std::int64_t bytes = 0;
  SampleSummary per_copy_seconds;
};

struct NodeCalibration {
  std::string date;          // UTC, ISO 8601
  std::string host;
  std::string gpu;           // "GPU 0: <name> [<PCI bus id>]"
  std::string clock;         // the device clock the flag samples read
  std::string command_line;
  NodeCalibrationOptions options;
  std::vector<NodeCopyTiming> copies;
  SampleSummary flag_one_way_seconds;  // half a round trip, per sample
};

struct NodeTransportFit {
  PostalFit copy;  // alpha: the copy latency; beta: 1 / the copy bandwidth
  NodeTransportParams params;
};

// copy_latency + n / copy_bandwidth by least squares over the per-size medians with weights 1/T^2
// (fit_postal, as the ping-pong: clamped coefficients are flagged), and flag_latency the median
// one-way flag time. Throws std::invalid_argument for fewer than 2 sizes or a flag time not > 0.
NodeTransportFit fit_node_transport(const NodeCalibration& calibration);

}  // namespace haloflag::model::calibration
