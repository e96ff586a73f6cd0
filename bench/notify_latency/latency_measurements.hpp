// The measurements of one notify_latency run, in the order they are reported:
//   cpu_read_write, device_read_write   the paper's Table 1: one read + one write of a flag
//   round_trip                          host signal -> device sees it and answers -> host sees it
//   one_way_host_to_device, one_way_device_to_host   from a separate, time-stamped ping-pong
//   empty_kernel_launch_sync, graph_launch_sync      launch + stream synchronise (GPU only)
// Each runs `warmup` samples first, then `iterations` timed ones.
#pragma once

#include <chrono>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "device_side.hpp"
#include "haloflag/notify/backend.hpp"
#include "latency_options.hpp"
#include "measurement.hpp"
#include "one_way_split.hpp"

namespace haloflag::bench {

struct MeasurementSettings {
  notify::Backend backend = notify::Backend::host;
  std::uint32_t warmup = 0;
  std::uint32_t iterations = 1;
  std::uint32_t ops_per_sample = 1;
  std::chrono::nanoseconds timeout{std::chrono::seconds(10)};
  std::chrono::nanoseconds poll_backoff{0};
  HostWait host_wait = HostWait::spin;
};

struct LatencyResults {
  std::vector<Measurement> measurements;  // in the order above
  ClockAlignment one_way_alignment;
  std::uint64_t host_clock_step_ns = 0;    // smallest step of the host clock seen
  std::uint64_t device_clock_step_ns = 0;  // smallest step of the device programs' clock

  const Measurement& get(const std::string& id) const;
};

// A measurement that could not complete: a missed deadline, a GPU runtime error, a read that
// saw the wrong value. The message names the measurement and what each side saw.
class MeasurementError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

LatencyResults run_latency_measurements(DeviceSide& device, const MeasurementSettings& settings);

}  // namespace haloflag::bench
