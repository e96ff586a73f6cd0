// notify_latency: what one notification through a flag in host memory costs on each side (the
// paper's Table 1), the flag round trip and one-way latencies between CPU and GPU, and, in the
// same run, an empty kernel launch + synchronise and a one-node graph launch + synchronise for
// comparison. One process, no MPI. Options and output: bench/README.md.
//
// Without a GPU (or with --backend host) a CPU thread stands in for the GPU; every output says
// so, and the launch rows are not measured.
//
// Exit status: 0 when everything asked was measured; 1 when a measurement failed (a missed
// deadline, a GPU runtime error, a read that saw the wrong value) or the report could not be
// written; 2 for bad options or a GPU backend that is not built or has no usable GPU.
#include <CLI/CLI.hpp>
#include <chrono>
#include <exception>
#include <iostream>
#include <memory>
#include <string>

#include "device_side.hpp"
#include "haloflag/bench/backend_choice.hpp"
#include "haloflag/bench/output_path.hpp"
#include "haloflag/bench/usage_error.hpp"
#include "haloflag/notify/backend.hpp"
#include "latency_json.hpp"
#include "latency_table.hpp"

namespace {

using namespace haloflag;
using namespace haloflag::bench;

constexpr int kFailureExitCode = 1;

int fail(const std::string& message, int exit_code) {
  std::cerr << "notify_latency: " << message << '\n';
  return exit_code;
}

// The device side the backend asks for; UsageError when --gpu names no visible GPU.
std::unique_ptr<DeviceSide> open_device_side(const BackendChoice& backend, int gpu) {
  if (backend.emulated()) return make_host_device_side();
  const int visible = notify::gpu_device_count();
  if (gpu >= visible) {
    throw UsageError("--gpu " + std::to_string(gpu) + ": only " + std::to_string(visible) +
                     " GPU(s) visible");
  }
  return make_gpu_device_side(gpu);
}

MeasurementSettings settings_of(const LatencyReport& report) {
  const LatencyOptions& options = report.options;
  MeasurementSettings settings;
  settings.backend = report.backend.backend;
  settings.warmup = options.warmup;
  settings.iterations = options.iterations;
  settings.ops_per_sample = options.ops_per_sample;
  settings.timeout = std::chrono::duration_cast<std::chrono::nanoseconds>(
      std::chrono::duration<double>(options.timeout_seconds));
  settings.poll_backoff = std::chrono::nanoseconds(options.poll_backoff_ns);
  settings.host_wait = options.host_wait;
  return settings;
}

int run_notify_latency(int argc, char** argv) {
  CLI::App app{
      "notify_latency: one read + one write of a flag in pinned host memory on the CPU "
      "and on the GPU (the paper's Table 1), flag round trip and one-way latencies, and "
      "kernel launch + synchronise in the same run; median, p10, p90, p99, min."};
  LatencyReport report;
  try {
    report.options = parse_latency_options(app, argc, argv);
  } catch (const CLI::CallForHelp& help) {
    return app.exit(help);
  } catch (const CLI::ParseError& error) {
    return fail(std::string(error.what()) + "\nRun with --help for more information.",
                kUsageExitCode);
  }
  report.command_line.assign(argv, argv + argc);
  // The report is written after every measurement: a path that cannot be written ends it now.
  if (const std::string problem = output_path_problem("--json", report.options.json_path);
      !problem.empty()) {
    return fail(problem, kUsageExitCode);
  }

  std::unique_ptr<DeviceSide> device;
  try {
    report.backend = choose_backend(report.options.backend_name);
    device = open_device_side(report.backend, report.options.gpu);
  } catch (const UsageError& error) {
    return fail(error.what(), kUsageExitCode);
  } catch (const std::exception& error) {
    return fail("opening the device side: " + std::string(error.what()), kFailureExitCode);
  }
  report.machine = collect_machine_facts();
  report.device_description = device->describe();
  report.device_clock = device->clock_name();
  report.gpu = device->gpu_facts();
  print_heading(std::cout, report);
  std::cout.flush();

  try {
    report.results = run_latency_measurements(*device, settings_of(report));
  } catch (const std::exception& error) {
    return fail(error.what(), kFailureExitCode);
  }
  report.targets = judge_targets(report.results, !report.backend.emulated());
  print_results(std::cout, report);

  if (!report.options.json_path.empty()) {
    try {
      write_latency_json(report.options.json_path, make_latency_json(report));
    } catch (const std::exception& error) {
      return fail(error.what(), kFailureExitCode);
    }
    std::cout << "wrote " << report.options.json_path << '\n';
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run_notify_latency(argc, argv);
  } catch (const std::exception& error) {
    return fail(error.what(), kFailureExitCode);
  }
}
