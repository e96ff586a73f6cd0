#include "peer_copy_report.hpp"

#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <vector>

#include <nlohmann/json.hpp>

#include "haloflag/bench/summary_json.hpp"
#include "haloflag/model/postal_fit.hpp"
#include "sample_summary.hpp"

namespace haloflag::bench {

namespace {

using model::calibration::SampleSummary;
using model::calibration::summarize;

std::vector<double> in_microseconds(const std::vector<double>& seconds) {
  std::vector<double> us;
  us.reserve(seconds.size());
  for (const double s : seconds) us.push_back(s * 1e6);
  return us;
}

// time = fixed + bytes / rate over every size's median, the fit the model's links use (relative
// error weighted, so the small sizes fix the fixed cost and the large ones the rate).
nlohmann::ordered_json fit_json(const PeerCopyRun& run, bool wall) {
  std::vector<std::int64_t> bytes;
  std::vector<double> seconds;
  for (const PeerCopySamples& s : run.samples) {
    bytes.push_back(s.bytes);
    seconds.push_back(summarize(wall ? s.wall_seconds : s.device_seconds).median);
  }
  const model::PostalFit fit = model::fit_postal(bytes, seconds);
  nlohmann::ordered_json json;
  json["fixed_us"] = fit.params.alpha * 1e6;
  json["rate_bytes_per_s"] = 1.0 / fit.params.beta;
  json["rms_relative_residual"] = fit.rms_relative_residual;
  json["min_bytes"] = fit.min_bytes;
  json["max_bytes"] = fit.max_bytes;
  json["clamped"] = fit.clamped;
  if (fit.clamped) json["clamp_reason"] = fit.clamp_reason;
  return json;
}

}  // namespace

std::string peer_copy_json(const PeerCopyRun& run) {
  nlohmann::ordered_json json;
  json["format"] = "haloflag-peer-copy";
  json["version"] = 1;
  json["tool"] = "haloflag_calibrate_node";
  json["date"] = run.date;
  json["host"] = run.host;
  json["command_line"] = run.command_line;
  json["gpus"] = {run.gpu_a, run.gpu_b};
  json["method"] =
      "per sample: cudaMemcpyPeerAsync (hipMemcpyPeerAsync) of `bytes` from GPU a to GPU b on a's "
      "stream and from b to a on b's stream, peer access on, then both streams synchronised; "
      "wall: the host's steady clock around all of it (the issue and the synchronisations "
      "included), device: the longer of the two copies by its stream's events";
  json["iterations"] = run.plan.iterations;
  json["warmup"] = run.plan.warmup;
  nlohmann::ordered_json sizes = nlohmann::ordered_json::array();
  for (const PeerCopySamples& s : run.samples) {
    nlohmann::ordered_json entry;
    entry["bytes"] = s.bytes;
    entry["wall_us"] = summary_json(summarize(in_microseconds(s.wall_seconds)));
    entry["device_us"] = summary_json(summarize(in_microseconds(s.device_seconds)));
    sizes.push_back(std::move(entry));
  }
  json["sizes"] = std::move(sizes);
  json["fit"] = {{"wall", fit_json(run, true)}, {"device", fit_json(run, false)}};
  return json.dump(2) + "\n";
}

void print_peer_copies(const PeerCopyRun& run) {
  std::printf("%12s %14s %14s %16s\n", "bytes/dir", "wall med[us]", "device med[us]",
              "GB/s per dir");
  for (const PeerCopySamples& s : run.samples) {
    const SampleSummary wall = summarize(s.wall_seconds);
    const SampleSummary device = summarize(s.device_seconds);
    std::printf("%12lld %14.2f %14.2f %16.1f\n", static_cast<long long>(s.bytes),
                wall.median * 1e6, device.median * 1e6,
                static_cast<double>(s.bytes) / wall.median / 1e9);
  }
  const nlohmann::ordered_json wall = fit_json(run, true);
  std::printf("fit (wall): fixed %.2f us + bytes / %.1f GB/s per direction (rms %.3f)\n",
              wall["fixed_us"].get<double>(), wall["rate_bytes_per_s"].get<double>() / 1e9,
              wall["rms_relative_residual"].get<double>());
}

}  // namespace haloflag::bench
