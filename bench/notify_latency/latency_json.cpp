#include "latency_json.hpp"

#include <cmath>
#include <fstream>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "haloflag/bench/json_sections.hpp"
#include "haloflag/bench/summary_json.hpp"

namespace haloflag::bench {

namespace {

using nlohmann::json;

// The common GPU section and whether host atomics are native.
json device_gpu_json(const std::optional<GpuFacts>& gpu) {
  json result = gpu_json(gpu);
  if (gpu) {
    result["host_native_atomics"] =
        gpu->host_native_atomics ? json(*gpu->host_native_atomics) : json(nullptr);
  }
  return result;
}

json parameters_json(const LatencyOptions& options) {
  return {{"backend", options.backend_name},
          {"gpu", options.gpu},
          {"warmup", options.warmup},
          {"iterations", options.iterations},
          {"ops_per_sample", options.ops_per_sample},
          {"timeout_s", options.timeout_seconds},
          {"poll_backoff_ns", options.poll_backoff_ns},
          {"host_wait", to_string(options.host_wait)},
          {"json", options.json_path}};
}

// Samples to 0.01 ns: the clocks step by 10 ns or more, and short numbers keep the file small.
json samples_json(const std::vector<double>& samples) {
  json values = json::array();
  for (const double sample : samples) values.push_back(std::round(sample * 100.0) / 100.0);
  return values;
}

json measurement_json(const Measurement& measurement) {
  json result = {{"id", measurement.id},
                 {"title", measurement.title},
                 {"measured", measurement.summary_ns.has_value()}};
  if (!measurement.summary_ns) {
    result["skipped_reason"] = measurement.skipped_reason;
    result["summary_ns"] = nullptr;
    return result;
  }
  const LatencySummary& s = *measurement.summary_ns;
  result["clock"] = measurement.clock;
  result["sample"] = measurement.sample;
  result["ops_per_sample"] = measurement.ops_per_sample;
  result["summary_ns"] = summary_json(s);
  result["summary_ns"]["p99"] = s.p99;
  result["samples_ns"] = samples_json(measurement.samples_ns);
  return result;
}

json targets_json(const TargetVerdict& targets) {
  json result = {{"judged", targets.judged},
                 {"source", "haloflag target for an H100"},
                 {"round_trip_median_max_us", kRoundTripMedianTargetUs},
                 {"launch_over_round_trip_min", kLaunchOverRoundTripTarget}};
  if (!targets.judged) {
    result["not_judged_reason"] = targets.not_judged_reason;
    return result;
  }
  result["round_trip_median_us"] = targets.round_trip_median_us;
  result["round_trip_met"] = targets.round_trip_met;
  result["launch_over_round_trip"] = optional_json(targets.launch_over_round_trip);
  result["launch_over_round_trip_met"] = targets.ratio_met;
  return result;
}

}  // namespace

json make_latency_json(const LatencyReport& report) {
  const LatencyResults& results = report.results;
  json measurements = json::array();
  for (const Measurement& measurement : results.measurements) {
    measurements.push_back(measurement_json(measurement));
  }
  const Measurement& round_trip = results.get("round_trip");
  json backend = backend_json(report.backend);
  backend["device_side"] = report.device_description;
  return {{"format", "haloflag-notify-latency"},
          {"version", 1},
          {"tool", "notify_latency"},
          {"date", report.machine.date},
          {"command_line", report.command_line},
          {"build", build_json()},
          {"machine",
           {{"hostname", report.machine.hostname},
            {"cpu_model", report.machine.cpu_model},
            {"os", report.machine.os},
            {"gpu", device_gpu_json(report.gpu)}}},
          {"backend", backend},
          {"parameters", parameters_json(report.options)},
          {"clocks",
           {{"host", kHostClockName},
            {"host_smallest_step_ns", results.host_clock_step_ns},
            {"device", report.device_clock},
            {"device_smallest_step_ns", results.device_clock_step_ns}}},
          {"time_unit", "nanoseconds; read + write rows per (read, write) pair"},
          {"measurements", measurements},
          {"one_way_alignment",
           {{"method", results.one_way_alignment.method},
            {"device_minus_host_ns", results.one_way_alignment.device_minus_host_ns},
            {"uncertainty_ns", results.one_way_alignment.uncertainty_ns}}},
          {"ratios",
           {{"empty_kernel_launch_sync_over_round_trip",
             optional_json(median_ratio(results.get("empty_kernel_launch_sync"), round_trip))},
            {"graph_launch_sync_over_round_trip",
             optional_json(median_ratio(results.get("graph_launch_sync"), round_trip))},
            {"of", "medians from this run"}}},
          {"targets", targets_json(report.targets)}};
}

void write_latency_json(const std::string& path, const nlohmann::json& report) {
  std::ofstream out(path, std::ios::trunc);
  out << report.dump(1) << '\n';
  out.close();
  if (!out) throw std::runtime_error(path + ": cannot write the JSON report");
}

}  // namespace haloflag::bench
