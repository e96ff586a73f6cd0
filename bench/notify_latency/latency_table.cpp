#include "latency_table.hpp"

#include <cstdio>
#include <string>

#include "haloflag/bench/build_info.hpp"

namespace haloflag::bench {

namespace {

template <class... Values>
std::string format(const char* pattern, Values... values) {
  char line[512];
  std::snprintf(line, sizeof line, pattern, values...);
  return line;
}

std::string describe_gpu(const LatencyReport& report) {
  std::string text = report.device_description;
  if (!report.gpu) return text;
  const GpuFacts& gpu = *report.gpu;
  text += ", " + gpu.architecture + ", " + std::to_string(gpu.multiprocessors) + " SMs, driver " +
          gpu.driver_version + ", runtime " + gpu.runtime_version;
  if (gpu.host_native_atomics) {
    text += std::string(", host native atomics: ") + (*gpu.host_native_atomics ? "yes" : "no");
  }
  return text;
}

// One row; `scale` turns ns into the table's unit.
void print_row(std::ostream& out, const Measurement& measurement, double scale, int width,
               const char* number) {
  const std::string pattern = std::string("%-") + std::to_string(width) + "s" + number + number +
                              number + number + number + "\n";
  if (!measurement.summary_ns) {
    out << format((std::string("%-") + std::to_string(width) + "s  not measured: %s\n").c_str(),
                  measurement.title.c_str(), measurement.skipped_reason.c_str());
    return;
  }
  const LatencySummary& s = *measurement.summary_ns;
  out << format(pattern.c_str(), measurement.title.c_str(), s.median * scale, s.p10 * scale,
                s.p90 * scale, s.p99 * scale, s.min * scale);
}

void print_columns(std::ostream& out, const char* first, int width) {
  out << format((std::string("%-") + std::to_string(width) + "s%10s%10s%10s%10s%10s\n").c_str(),
                first, "median", "p10", "p90", "p99", "min");
}

}  // namespace

void print_heading(std::ostream& out, const LatencyReport& report) {
  const LatencyOptions& options = report.options;
  const bool gpu = !report.backend.emulated();
  out << "notify_latency (haloflag " << build_info().haloflag_version
      << "): notification flags beside kernel launch + synchronise (the paper's Table 1)\n";
  out << "backend     " << report.backend.describe() << '\n';
  out << "device      " << describe_gpu(report) << '\n';
  out << "host        " << report.machine.hostname << ", "
      << (report.machine.cpu_model.empty() ? "CPU unknown" : report.machine.cpu_model) << ", "
      << report.machine.os << '\n';
  out << "timing      " << options.warmup << " warm-up + " << options.iterations
      << " timed samples per measurement; Table 1: " << options.ops_per_sample
      << " (read, write) pairs per timed window\n";
  out << "waits       host: " << to_string(options.host_wait) << "; "
      << (gpu ? "GPU poll back-off " + std::to_string(options.poll_backoff_ns) + " ns; "
              : std::string())
      << "deadline " << options.timeout_seconds << " s\n";
}

void print_results(std::ostream& out, const LatencyReport& report) {
  const LatencyResults& results = report.results;
  const bool gpu = !report.backend.emulated();
  constexpr int kTable1Width = 12;
  constexpr int kLatencyWidth = 36;

  out << "\nTable 1: one read followed by one write of a flag in "
      << (gpu ? "pinned host memory" : "host memory (host backend)") << ", ns\n";
  print_columns(out, "side", kTable1Width);
  for (const char* id : {"cpu_read_write", "device_read_write"}) {
    print_row(out, results.get(id), 1.0, kTable1Width, "%10.1f");
  }

  out << "\nflag latency and kernel launch, us\n";
  print_columns(out, "", kLatencyWidth);
  for (const char* id : {"round_trip", "one_way_host_to_device", "one_way_device_to_host",
                         "empty_kernel_launch_sync", "graph_launch_sync"}) {
    print_row(out, results.get(id), 1e-3, kLatencyWidth, "%10.3f");
  }
  out << '\n';

  const Measurement& round_trip = results.get("round_trip");
  const auto empty_ratio = median_ratio(results.get("empty_kernel_launch_sync"), round_trip);
  const auto graph_ratio = median_ratio(results.get("graph_launch_sync"), round_trip);
  if (empty_ratio && graph_ratio) {
    out << format(
        "same run    empty kernel launch + sync / round trip = %.2fx; graph launch + "
        "sync / round trip = %.2fx (medians)\n",
        *empty_ratio, *graph_ratio);
  }
  const ClockAlignment& alignment = results.one_way_alignment;
  out << "one-way     " << alignment.method;
  if (gpu) {
    out << format(
        ": offset known to +-%.3f us; that uncertainty moves time between the two "
        "directions, their sum is exact",
        static_cast<double>(alignment.uncertainty_ns) * 1e-3);
  }
  out << '\n';
  out << "clocks      host "
      << format("smallest step %llu ns",
                static_cast<unsigned long long>(results.host_clock_step_ns))
      << "; device " << report.device_clock << " "
      << format("smallest step %llu ns",
                static_cast<unsigned long long>(results.device_clock_step_ns))
      << '\n';

  const TargetVerdict& targets = report.targets;
  if (!targets.judged) {
    out << "targets     not judged: " << targets.not_judged_reason << '\n';
  } else {
    out << format("targets     round trip median <= %.1f us: %s (%.3f us)",
                  kRoundTripMedianTargetUs, targets.round_trip_met ? "met" : "MISSED",
                  targets.round_trip_median_us);
    if (targets.launch_over_round_trip) {
      out << format("; empty launch + sync >= %.1fx round trip: %s (%.2fx)",
                    kLaunchOverRoundTripTarget, targets.ratio_met ? "met" : "MISSED",
                    *targets.launch_over_round_trip);
    }
    out << " (targets set for an H100)\n";
  }
  if (!gpu) {
    out << "host backend: the stand-in rows are a CPU thread standing in for the GPU, not GPU "
           "results\n";
  }
}

}  // namespace haloflag::bench
