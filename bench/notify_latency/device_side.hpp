// Where the device programs run: a GPU (one thread of a kernel on a private stream), or, on the
// host backend, a CPU thread standing in for the GPU. Also times what only a GPU has: an empty
// kernel launch and a one-node graph launch, each followed by a stream synchronise.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "device_programs.hpp"
#include "haloflag/bench/gpu_facts.hpp"
#include "haloflag/notify/backend.hpp"

namespace haloflag::bench {

// The clock of every host-side time stamp (notify::clock_ns on the host).
inline constexpr const char* kHostClockName = "std::chrono::steady_clock (host)";

class DeviceSide {
 public:
  virtual ~DeviceSide() = default;

  // e.g. "GPU 0: NVIDIA H100 80GB HBM3 [0000:19:00.0]" or "a CPU thread standing in for the GPU".
  virtual std::string describe() const = 0;
  virtual std::optional<GpuFacts> gpu_facts() const = 0;
  // The clock the device programs read (notify::clock_ns on that side).
  virtual std::string clock_name() const = 0;

  // Start a program; it runs while the host does its part. finish() waits for it: its waits
  // have deadlines and honour the control block's abort flag, so this always ends. Throws
  // NotifyError when the GPU runtime reports an error.
  virtual void start(const ResponderPlan& plan) = 0;
  virtual void start(const ReadWritePlan& plan) = 0;
  virtual void start(const ClockStepPlan& plan) = 0;
  virtual void finish() = 0;

  // Kernel launch + synchronise, timed on the host clock: `count` samples in ns. Only on a
  // GPU; elsewhere launch_unavailable_reason() says why.
  virtual std::optional<std::string> launch_unavailable_reason() const = 0;
  virtual std::vector<double> time_empty_kernel_launches(std::uint32_t count) = 0;
  virtual std::vector<double> time_graph_launches(std::uint32_t count) = 0;
};

// A CPU thread standing in for the GPU (the host backend).
std::unique_ptr<DeviceSide> make_host_device_side();
// GPU `index` of the compiled GPU backend, made current for this thread. Throws NotifyError in
// a build without one.
std::unique_ptr<DeviceSide> make_gpu_device_side(int index);

}  // namespace haloflag::bench
