// haloflag_calibrate_node: the node transport's terms on one GPU (docs/model.md, "Node
// transport"): the kernel copy of n bytes between device buffers, fitted as
// copy_latency + n / copy_bandwidth, and the one-way latency of a flag between two polling
// blocks. Writes a calibration file whose "node_transport" object haloflag_calibrate_merge
// --node puts into a parameter file. One process, no MPI. With --peer-gpu it also times copies
// between two GPUs in both directions at once (peer_copy_timing) into a file of their own.
//
// Exit status: 0 when the file was written and read back; 1 with the reason for a bad value, no
// usable GPU, a wrong copy or a flag wait past its deadline; CLI11's codes for bad options.
#include <CLI/CLI.hpp>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <stdexcept>
#include <string>
#include <vector>

#include "calibration_files.hpp"
#include "device_copy_timing.hpp"
#include "flag_round_trips.hpp"
#include "haloflag/bench/gpu_build.hpp"
#include "haloflag/bench/machine_facts.hpp"
#include "haloflag/notify/backend.hpp"
#include "haloflag/notify/gpu_device.hpp"
#include "node_transport_calibration.hpp"
#include "peer_copy_report.hpp"
#include "peer_copy_timing.hpp"
#include "pingpong.hpp"
#include "run_info.hpp"
#include "size_time_table.hpp"

namespace {

using namespace haloflag;
using namespace haloflag::model::calibration;

std::string joined_command_line(int argc, char** argv) {
  std::string line;
  for (int i = 0; i < argc; ++i) line += (i > 0 ? " " : "") + std::string(argv[i]);
  return line;
}

// Makes the GPU current and names it; throws std::invalid_argument when there is none to use.
std::string open_gpu(int index) {
  std::string why;
  const int count = notify::gpu_device_count(&why);
  if (count == 0) throw std::invalid_argument("no usable GPU (" + why + ")");
  if (index < 0 || index >= count) {
    throw std::invalid_argument("--gpu " + std::to_string(index) + ": this process sees " +
                                std::to_string(count) + " GPU(s)");
  }
  notify::set_current_gpu(index);
  const notify::GpuDeviceInfo info = notify::gpu_device_info(index);
  return "GPU " + std::to_string(index) + ": " + info.name + " [" + info.pci_bus_id + "]";
}

void print_copies(const NodeCalibration& calibration) {
  print_size_time_heading("GB/s");
  for (const NodeCopyTiming& t : calibration.copies) {
    print_size_time_row(t.bytes, t.per_copy_seconds, 1e9);
  }
}

// The link between GPU `options.gpu` and `peer_gpu`: powers of two from 64 KiB to 32 MiB per
// direction, and the sizes a caller names (the halo bytes of an exchange), into `out_path`.
void measure_peer_copies(const NodeCalibration& calibration, int peer_gpu,
                         const std::vector<std::int64_t>& extra_bytes, int iterations,
                         const std::string& out_path) {
  bench::PeerCopyRun run;
  run.plan.gpu_a = calibration.options.gpu;
  run.plan.gpu_b = peer_gpu;
  run.plan.sizes = power_of_two_sizes(std::int64_t{64} << 10, std::int64_t{32} << 20);
  run.plan.sizes.insert(run.plan.sizes.end(), extra_bytes.begin(), extra_bytes.end());
  run.plan.iterations = iterations;
  run.date = calibration.date;
  run.host = calibration.host;
  run.command_line = calibration.command_line;
  run.gpu_a = calibration.gpu;
  run.gpu_b = open_gpu(peer_gpu);
  std::printf("== peer copies: %s <-> %s, both directions at once, %d samples per size\n",
              run.gpu_a.c_str(), run.gpu_b.c_str(), iterations);
  run.samples = bench::time_peer_copies(run.plan);
  bench::print_peer_copies(run);
  write_text(out_path, bench::peer_copy_json(run));
  std::printf("wrote %s\n", out_path.c_str());
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Node transport terms on one GPU: the copy of n bytes between device buffers "
               "(latency + n / bandwidth) and the one-way latency of a device-memory flag."};
  NodeCalibrationOptions options;
  std::int64_t min_bytes = 1024;
  std::int64_t max_bytes = std::int64_t{4} << 20;
  double timeout_seconds = options.timeout_seconds;
  std::string out_path;
  app.add_option("--gpu", options.gpu, "GPU to measure")->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  app.add_option("--min-bytes", min_bytes, "smallest copy (sizes are powers of two)")
      ->capture_default_str()->check(CLI::Range(std::int64_t{8}, std::int64_t{1} << 30));
  app.add_option("--max-bytes", max_bytes, "largest copy")->capture_default_str()
      ->check(CLI::Range(std::int64_t{8}, std::int64_t{1} << 30));
  app.add_option("--iterations", options.iterations, "timed launch pairs per size")
      ->capture_default_str()->check(CLI::PositiveNumber);
  app.add_option("--warmup", options.warmup, "untimed launch pairs per size first")
      ->capture_default_str()->check(CLI::NonNegativeNumber);
  app.add_option("--copies-per-launch", options.copies_per_launch,
                 "copies in the long launch of a pair (the short one makes one)")
      ->capture_default_str()->check(CLI::Range(2, 100000));
  app.add_option("--threads", options.threads, "threads of the copying block (as a pack block)")
      ->capture_default_str()->check(CLI::Range(32, 1024));
  app.add_option("--flag-samples", options.flag_samples, "timed flag samples")
      ->capture_default_str()->check(CLI::PositiveNumber);
  app.add_option("--round-trips-per-sample", options.round_trips_per_sample,
                 "flag round trips per sample")->capture_default_str()->check(CLI::PositiveNumber);
  app.add_option("--poll-backoff-ns", options.poll_backoff_ns,
                 "pause between two polls of a waiting block")->capture_default_str()
      ->check(CLI::Range(0, 1'000'000));
  app.add_option("--timeout", timeout_seconds, "deadline of every flag wait, seconds")
      ->capture_default_str()->check(CLI::Range(0.001, 3600.0));
  app.add_flag("--quick", options.quick,
               "check mode: sizes up to 64 KiB, 10 iterations, 2 warm-up, 20 flag samples "
               "(where not given)");
  app.add_option("-o,--out", out_path, "calibration file to write (JSON)")->required();
  int peer_gpu = -1;
  std::vector<std::int64_t> peer_bytes;
  int peer_iterations = 300;
  std::string peer_out;
  app.add_option("--peer-gpu", peer_gpu,
                 "also time copies between --gpu and this GPU, both directions at once")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--peer-bytes", peer_bytes, "more sizes per direction for the peer copies")
      ->delimiter(',')->check(CLI::Range(std::int64_t{1}, std::int64_t{1} << 30));
  app.add_option("--peer-iterations", peer_iterations, "timed peer copies per size")
      ->capture_default_str()->check(CLI::PositiveNumber);
  app.add_option("--peer-out", peer_out, "peer copy file to write (JSON; with --peer-gpu)");
  CLI11_PARSE(app, argc, argv);

  try {
    if (options.threads % 32 != 0) {
      throw std::invalid_argument("--threads " + std::to_string(options.threads) +
                                  ": a GPU block needs a multiple of 32");
    }
    if (options.quick) {
      if (app.count("--max-bytes") == 0) max_bytes = std::int64_t{64} << 10;
      if (app.count("--iterations") == 0) options.iterations = 10;
      if (app.count("--warmup") == 0) options.warmup = 2;
      if (app.count("--flag-samples") == 0) options.flag_samples = 20;
    }
    options.sizes = power_of_two_sizes(min_bytes, max_bytes);
    if (options.sizes.size() < 2) {
      throw std::invalid_argument("--min-bytes " + std::to_string(min_bytes) + " --max-bytes " +
                                  std::to_string(max_bytes) + ": the copy fit needs at least 2 "
                                  "sizes (powers of two in between)");
    }
    options.timeout_seconds = timeout_seconds;
    if ((peer_gpu >= 0) != !peer_out.empty()) {
      throw std::invalid_argument("--peer-gpu and --peer-out go together");
    }

    NodeCalibration calibration;
    calibration.options = options;
    calibration.gpu = open_gpu(options.gpu);
    calibration.date = utc_now_iso8601();
    calibration.host = bench::host_name();
    if (calibration.host.empty()) calibration.host = "unknown";
    calibration.command_line = joined_command_line(argc, argv);
    calibration.clock = bench::kGpuClockName;
    std::printf("%s on %s\n", calibration.gpu.c_str(), calibration.host.c_str());

    std::printf("== device copy: one block of %d threads, %d copies per long launch\n",
                options.threads, options.copies_per_launch);
    bench::CopyTimingPlan copy_plan;
    copy_plan.sizes = options.sizes;
    copy_plan.iterations = options.iterations;
    copy_plan.warmup = options.warmup;
    copy_plan.copies_per_launch = options.copies_per_launch;
    copy_plan.threads = options.threads;
    const std::vector<std::vector<double>> copies = bench::time_device_copies(copy_plan);
    for (std::size_t i = 0; i < options.sizes.size(); ++i) {
      calibration.copies.push_back({options.sizes[i], summarize(copies[i])});
    }
    print_copies(calibration);

    std::printf("== flag: two blocks, %d samples of %d round trips\n", options.flag_samples,
                options.round_trips_per_sample);
    bench::FlagTimingPlan flag_plan;
    flag_plan.samples = options.flag_samples;
    flag_plan.warmup_samples = options.flag_warmup_samples;
    flag_plan.round_trips_per_sample = options.round_trips_per_sample;
    flag_plan.poll_backoff_ns = options.poll_backoff_ns;
    flag_plan.timeout = std::chrono::duration_cast<std::chrono::nanoseconds>(
        std::chrono::duration<double>(timeout_seconds));
    calibration.flag_one_way_seconds = summarize(bench::time_flag_round_trips(flag_plan));
    const SampleSummary& flag = calibration.flag_one_way_seconds;
    std::printf("one-way: median %.3f us, p10 %.3f us, p90 %.3f us\n", flag.median * 1e6,
                flag.p10 * 1e6, flag.p90 * 1e6);

    const NodeTransportFit fit = fit_node_transport(calibration);
    write_text(out_path, node_calibration_to_json(calibration, fit));
    const NodeFit written = read_node_fit(out_path);  // what the merge will read
    std::printf("node_transport: copy_latency_s %.4e, copy_bandwidth_bytes_per_s %.4e, "
                "flag_latency_s %.4e (copy fit rms %.3f%s)\n",
                written.params.copy_latency, written.params.copy_bandwidth,
                written.params.flag_latency, fit.copy.rms_relative_residual,
                fit.copy.clamped ? (", clamped: " + fit.copy.clamp_reason).c_str() : "");
    std::printf("wrote %s\n", out_path.c_str());
    if (peer_gpu >= 0) {
      measure_peer_copies(calibration, peer_gpu, peer_bytes, peer_iterations, peer_out);
    }
  } catch (const std::exception& error) {
    std::fprintf(stderr, "haloflag_calibrate_node: error: %s\n", error.what());
    return 1;
  }
  return 0;
}
