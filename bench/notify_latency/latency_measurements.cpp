#include "latency_measurements.hpp"

#include <cstddef>
#include <exception>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "haloflag/kernels/device_memory.hpp"
#include "haloflag/notify/clock.hpp"
#include "haloflag/notify/control_block.hpp"
#include "haloflag/notify/flag_array.hpp"
#include "host_flag_wait.hpp"

namespace haloflag::bench {

namespace {

using kernels::DeviceMemory;
using notify::Backend;
using notify::ControlBlock;
using notify::FlagArray;
using notify::FlagWriter;

constexpr std::uint32_t kClockSteps = 64;
constexpr std::uint64_t kNotWritten = std::numeric_limits<std::uint64_t>::max();

// One 64-bit word of device memory that a program reports through; starts as kNotWritten so
// that a program that never ran cannot pass for one that succeeded.
class ReportWord {
 public:
  explicit ReportWord(Backend backend) : memory_(backend, sizeof(std::uint64_t)) {
    memory_.copy_from_host(&kNotWritten, sizeof kNotWritten);
  }
  std::uint64_t* device() const { return static_cast<std::uint64_t*>(memory_.data()); }
  std::uint64_t read() const {
    std::uint64_t value = 0;
    memory_.copy_to_host(&value, sizeof value);
    return value;
  }

 private:
  DeviceMemory memory_;
};

std::vector<std::uint64_t> read_words(const DeviceMemory& memory, std::size_t count) {
  std::vector<std::uint64_t> words(count);
  memory.copy_to_host(words.data(), count * sizeof(std::uint64_t));
  return words;
}

// The samples after the warm-up ones.
std::vector<double> timed_part(const std::vector<double>& all, std::uint32_t warmup) {
  return {all.begin() + warmup, all.end()};
}

// Runs the host's part while the device program started just before runs, then waits for the
// program. On any failure the abort flag is raised first, so the program's waits end; the
// error names the measurement and what the device side recorded.
template <class HostPart>
void run_beside_device(DeviceSide& device, ControlBlock& control, const std::string& what,
                       HostPart&& host_part) {
  try {
    host_part();
  } catch (const std::exception& error) {
    control.raise_abort();
    std::string message = what + ": " + error.what();
    try {
      device.finish();
    } catch (const std::exception& device_error) {
      message += "; device side: " + std::string(device_error.what());
    }
    if (auto failure = control.failure(notify::Side::device)) message += "; " + failure->describe();
    throw MeasurementError(message);
  }
  try {
    device.finish();
  } catch (const std::exception& error) {
    throw MeasurementError(what + ": " + error.what());
  }
  if (auto failure = control.failure(notify::Side::device)) {
    throw MeasurementError(what + ": " + failure->describe());
  }
}

class LatencyRun {
 public:
  LatencyRun(DeviceSide& device, const MeasurementSettings& settings)
      : device_(device),
        settings_(settings),
        control_(settings.backend, settings.timeout),
        device_name_(settings.backend == Backend::host ? "stand-in" : "GPU"),
        samples_(settings.warmup + settings.iterations),
        host_written_(control_, 1, FlagWriter::host, "host_written"),
        device_written_(control_, 1, FlagWriter::device, "device_written") {
    control_.set_poll_backoff(settings.poll_backoff);
    host_written_.signal(0, 1);  // what the device's Table 1 reads expect
  }

  LatencyResults run() {
    LatencyResults results;
    measure_clock_steps(results);
    // The device's Table 1 row first, so that the CPU's then reads a flag the device has written.
    Measurement device_read_write = time_device_read_write();
    results.measurements.push_back(time_cpu_read_write());
    results.measurements.push_back(std::move(device_read_write));
    results.measurements.push_back(time_round_trips());
    time_one_way(results);
    time_launches(results);
    return results;
  }

 private:
  void measure_clock_steps(LatencyResults& results) {
    std::uint64_t host_step = 0;
    measure_clock_step(ClockStepPlan{kClockSteps, &host_step});
    results.host_clock_step_ns = host_step;
    const ReportWord device_step(settings_.backend);
    start(ClockStepPlan{kClockSteps, device_step.device()}, "device clock step");
    run_beside_device(device_, control_, "device clock step", [] {});
    results.device_clock_step_ns = device_step.read();
  }

  // Starts a device program; a failed launch is reported with the measurement it was for.
  template <class Plan>
  void start(const Plan& plan, const std::string& what) {
    try {
      device_.start(plan);
    } catch (const std::exception& error) {
      throw MeasurementError(what + ": starting the device program: " + error.what());
    }
  }

  std::string read_write_sample() const {
    return std::to_string(settings_.ops_per_sample) +
           " x (poll_flag on the other side's flag, then signal_flag on this side's) in one "
           "timed window, divided by " +
           std::to_string(settings_.ops_per_sample);
  }

  std::vector<double> per_operation(const std::vector<std::uint64_t>& windows) const {
    std::vector<double> samples;
    samples.reserve(settings_.iterations);
    for (std::size_t i = settings_.warmup; i < windows.size(); ++i) {
      samples.push_back(static_cast<double>(windows[i]) / settings_.ops_per_sample);
    }
    return samples;
  }

  void check_no_stale_reads(std::uint64_t stale, const std::string& what) const {
    if (stale == kNotWritten) {
      throw MeasurementError(what + ": the program did not report (did it run?)");
    }
    if (stale != 0) {
      throw MeasurementError(what + ": " + std::to_string(stale) +
                             " reads did not see the value the other side had written: the flag "
                             "memory is not shared as it should be");
    }
  }

  Measurement time_device_read_write() {
    DeviceMemory windows(settings_.backend, samples_ * sizeof(std::uint64_t));
    const ReportWord stale(settings_.backend);
    ReadWritePlan plan;
    plan.read_flags = host_written_.device_view();
    plan.expected = 1;
    plan.write_flags = device_written_.device_view();
    plan.samples = samples_;
    plan.ops_per_sample = settings_.ops_per_sample;
    plan.window_ns = static_cast<std::uint64_t*>(windows.data());
    plan.stale_reads = stale.device();
    const std::string what = device_name_ + " read + write";
    start(plan, what);
    run_beside_device(device_, control_, what, [] {});
    check_no_stale_reads(stale.read(), what);
    return measured("device_read_write", device_name_, device_.clock_name(), read_write_sample(),
                    per_operation(read_words(windows, samples_)), settings_.ops_per_sample);
  }

  // After the device's measurement, so the CPU reads a flag the device has really written.
  Measurement time_cpu_read_write() {
    std::vector<std::uint64_t> windows(samples_);
    std::uint64_t stale = kNotWritten;
    ReadWritePlan plan;
    plan.read_flags = device_written_.host_view();
    plan.expected = device_written_.value(0);
    plan.write_flags = host_written_.host_view();
    plan.first_epoch = host_written_.value(0) + 1;
    plan.samples = samples_;
    plan.ops_per_sample = settings_.ops_per_sample;
    plan.window_ns = windows.data();
    plan.stale_reads = &stale;
    time_read_write(plan);
    check_no_stale_reads(stale, "CPU read + write");
    return measured("cpu_read_write", "CPU", kHostClockName, read_write_sample(),
                    per_operation(windows), settings_.ops_per_sample);
  }

  // warmup + iterations epochs through a fresh pair of flags; device stamps when asked.
  PingPongStamps ping_pong(bool stamped, const std::string& what) {
    FlagArray to_device(control_, 1, FlagWriter::host, "to_device");
    FlagArray to_host(control_, 1, FlagWriter::device, "to_host");
    DeviceMemory device_stamps(settings_.backend, stamped ? samples_ * sizeof(std::uint64_t) : 0);
    const ReportWord outcome(settings_.backend);
    ResponderPlan plan;
    plan.to_device = to_device.device_view();
    plan.to_host = to_host.device_view();
    plan.epochs = samples_;
    plan.control = control_.device_control();
    plan.seen_at_ns = stamped ? static_cast<std::uint64_t*>(device_stamps.data()) : nullptr;
    plan.outcome = outcome.device();

    PingPongStamps stamps;
    stamps.host_sent_ns.resize(samples_);
    stamps.host_seen_ns.resize(samples_);
    start(plan, what);
    run_beside_device(device_, control_, what, [&] {
      for (std::uint64_t epoch = 1; epoch <= samples_; ++epoch) {
        stamps.host_sent_ns[epoch - 1] = notify::clock_ns();
        to_device.signal(0, epoch);
        wait_for_flag(to_host, 0, epoch, settings_.host_wait, settings_.timeout);
        stamps.host_seen_ns[epoch - 1] = notify::clock_ns();
      }
    });
    if (outcome.read() != static_cast<std::uint64_t>(notify::WaitOutcome::ready)) {
      throw MeasurementError(what + ": the device side did not answer every epoch");
    }
    if (stamped) stamps.device_seen_ns = read_words(device_stamps, samples_);
    return stamps;
  }

  Measurement time_round_trips() {
    const std::string title = "round trip CPU -> " + device_name_ + " -> CPU";
    const PingPongStamps stamps = ping_pong(false, title);
    std::vector<double> samples;
    samples.reserve(settings_.iterations);
    for (std::size_t i = settings_.warmup; i < samples_; ++i) {
      samples.push_back(static_cast<double>(stamps.host_seen_ns[i] - stamps.host_sent_ns[i]));
    }
    return measured("round_trip", title, kHostClockName,
                    "host: signal its flag, wait (" + std::string(to_string(settings_.host_wait)) +
                        ") until the " + device_name_ + " has seen it and signalled back",
                    std::move(samples));
  }

  void time_one_way(LatencyResults& results) {
    const PingPongStamps stamps = ping_pong(true, "time-stamped ping-pong");
    OneWayLatencies one_way =
        split_round_trips(stamps, settings_.warmup, settings_.backend == Backend::host);
    const std::string device_clock = device_.clock_name();
    const std::string clocks =
        (device_clock == kHostClockName ? device_clock
                                        : std::string(kHostClockName) + " and " + device_clock) +
        "; " + one_way.alignment.method;
    results.measurements.push_back(
        measured("one_way_host_to_device", "one-way CPU -> " + device_name_, clocks,
                 "host clock just before the host's signal -> device clock when wait_flag "
                 "returned on the " +
                     device_name_,
                 std::move(one_way.host_to_device_ns)));
    results.measurements.push_back(measured("one_way_device_to_host",
                                            "one-way " + device_name_ + " -> CPU", clocks,
                                            "device clock just before the " + device_name_ +
                                                "'s signal -> host clock when the host saw it",
                                            std::move(one_way.device_to_host_ns)));
    results.one_way_alignment = one_way.alignment;
  }

  void time_launches(LatencyResults& results) {
    const char* const empty_title = "empty kernel launch + stream sync";
    const char* const graph_title = "1-node graph launch + stream sync";
    if (const auto reason = device_.launch_unavailable_reason()) {
      results.measurements.push_back(skipped("empty_kernel_launch_sync", empty_title, *reason));
      results.measurements.push_back(skipped("graph_launch_sync", graph_title, *reason));
      return;
    }
    std::vector<double> empty;
    std::vector<double> graph;
    try {
      empty = device_.time_empty_kernel_launches(samples_);
      graph = device_.time_graph_launches(samples_);
    } catch (const std::exception& error) {
      throw MeasurementError(std::string("kernel launches: ") + error.what());
    }
    results.measurements.push_back(
        measured("empty_kernel_launch_sync", empty_title, kHostClockName,
                 "host: launch an empty <<<1,1>>> kernel on a non-blocking stream, then "
                 "synchronise the stream",
                 timed_part(empty, settings_.warmup)));
    results.measurements.push_back(measured(
        "graph_launch_sync", graph_title, kHostClockName,
        "host: launch an instantiated graph holding that one kernel, then synchronise the stream",
        timed_part(graph, settings_.warmup)));
  }

  DeviceSide& device_;
  const MeasurementSettings& settings_;
  ControlBlock control_;
  std::string device_name_;
  std::uint32_t samples_;  // warm-up + timed, per measurement
  // The flags of Table 1: one written by each side.
  FlagArray host_written_;
  FlagArray device_written_;
};

}  // namespace

const Measurement& LatencyResults::get(const std::string& id) const {
  for (const Measurement& measurement : measurements) {
    if (measurement.id == id) return measurement;
  }
  throw std::out_of_range("no measurement '" + id + "'");
}

LatencyResults run_latency_measurements(DeviceSide& device, const MeasurementSettings& settings) {
  return LatencyRun(device, settings).run();
}

}  // namespace haloflag::bench
