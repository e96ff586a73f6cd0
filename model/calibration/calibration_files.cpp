#include "calibration_files.hpp"

#include <fstream>
#include <stdexcept>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "haloflag/model/errors.hpp"
#include "json_fields.hpp"
#include "node_transport_fields.hpp"

namespace haloflag::model::calibration {

namespace {

using OrderedJson = nlohmann::ordered_json;
using detail::Json;
using detail::ObjectReader;
using detail::Problems;

OrderedJson run_json(const RunInfo& run) {
  OrderedJson json;
  json["tool"] = run.tool;
  json["date"] = run.date;
  json["mpi_library"] = run.mpi_library;
  json["mpi_settings"] = run.mpi_settings;
  json["ranks"] = run.ranks;
  json["hosts"] = run.hosts;
  return json;
}

// The head of every calibration file: its format, the format's version and the run.
OrderedJson head_json(std::string_view format, OrderedJson run) {
  OrderedJson json;
  json["format"] = std::string(format);
  json["version"] = kCalibrationFormatVersion;
  json["run"] = std::move(run);
  return json;
}

// A list of what `entry` writes of each item (the measurements of a file).
template <class Item, class Entry>
OrderedJson list_json(const std::vector<Item>& items, Entry entry) {
  OrderedJson list = OrderedJson::array();
  for (const Item& item : items) list.push_back(entry(item));
  return list;
}

OrderedJson summary_json(const SampleSummary& s, std::string_view unit) {
  OrderedJson json;
  json["count"] = s.count;
  json["median" + std::string(unit)] = s.median;
  json["p10" + std::string(unit)] = s.p10;
  json["p90" + std::string(unit)] = s.p90;
  json["min" + std::string(unit)] = s.min;
  json["max" + std::string(unit)] = s.max;
  return json;
}

OrderedJson postal_fit_json(const PostalFit& fit) {
  OrderedJson json;
  json["alpha"] = fit.params.alpha;
  json["beta"] = fit.params.beta;
  json["points"] = fit.points;
  json["min_bytes"] = fit.min_bytes;
  json["max_bytes"] = fit.max_bytes;
  json["rms_relative_residual"] = fit.rms_relative_residual;
  json["clamped"] = fit.clamped;
  json["clamp_reason"] = fit.clamp_reason;
  json["borrowed"] = fit.borrowed;
  return json;
}

std::optional<PostalParams> read_postal_fit(ObjectReader& fit, const std::string& side,
                                            std::vector<std::string>& notes) {
  auto reader = fit.object(side);
  if (!reader) return std::nullopt;
  const auto alpha = reader->positive_number("alpha");
  const auto beta = reader->positive_number("beta");
  if (reader->boolean("clamped", false).value_or(false)) {
    notes.push_back("ping-pong " + side + " fit clamped: " +
                    reader->string("clamp_reason", false).value_or("?"));
  }
  if (reader->boolean("borrowed", false).value_or(false)) {
    notes.push_back("ping-pong: no size measured on the " + side +
                    " side of the threshold; its alpha and beta are the other side's");
  }
  if (!alpha || !beta) return std::nullopt;
  return PostalParams{*alpha, *beta};
}

}  // namespace

std::string pingpong_to_json(const PingPongResult& result) {
  OrderedJson json = head_json(kPingPongFormat, run_json(result.run));
  OrderedJson options;
  options["pair"] = {result.options.rank_a, result.options.rank_b};
  options["iterations"] = result.options.iterations;
  options["warmup"] = result.options.warmup;
  options["quick"] = result.options.quick;
  options["sizes"] = result.options.sizes;
  options["threshold_given"] = result.options.threshold ? OrderedJson(*result.options.threshold)
                                                        : OrderedJson(nullptr);
  json["options"] = std::move(options);

  json["measurements"] = list_json(result.timings, [](const SizeTiming& timing) {
    OrderedJson entry;
    entry["bytes"] = timing.bytes;
    entry["one_way"] = summary_json(timing.one_way_seconds, "_s");
    return entry;
  });

  OrderedJson fit;
  fit["model"] = "T = alpha + beta * n on each side of the threshold (weights 1/T^2)";
  fit["method"] = result.fit.method;
  fit["threshold_bytes"] = result.fit.threshold_bytes;
  fit["single_line_rms_relative_residual"] = result.fit.single_line_rms_relative_residual;
  fit["two_line_rms_relative_residual"] = result.fit.two_line_rms_relative_residual;
  fit["eager"] = postal_fit_json(result.fit.eager);
  fit["rendezvous"] = postal_fit_json(result.fit.rendezvous);
  json["fit"] = std::move(fit);
  return json.dump(2) + "\n";
}

std::string bulk_exchange_to_json(const BulkExchangeResult& result) {
  OrderedJson json = head_json(kBulkExchangeFormat, run_json(result.run));
  OrderedJson options;
  options["messages"] = result.options.messages;
  options["iterations"] = result.options.iterations;
  options["warmup"] = result.options.warmup;
  options["quick"] = result.options.quick;
  options["sizes"] = result.options.sizes;
  json["options"] = std::move(options);
  json["measurements"] = list_json(result.timings, [](const BulkExchangeTiming& timing) {
    OrderedJson entry;
    entry["message_bytes"] = timing.message_bytes;
    entry["moved_bytes"] = timing.moved_bytes;
    entry["slowest_rank"] = summary_json(timing.seconds, "_s");
    return entry;
  });
  OrderedJson fit = postal_fit_json(result.fit);
  fit["model"] = "T = alpha + beta * (bytes sent + received by one rank) (weights 1/T^2)";
  json["fit"] = std::move(fit);
  return json.dump(2) + "\n";
}

std::string concurrent_to_json(const ConcurrentResult& result) {
  OrderedJson json = head_json(kConcurrentFormat, run_json(result.run));
  OrderedJson options;
  options["sizes"] = result.options.sizes;
  options["max_flows"] = result.options.max_flows;
  options["window"] = result.options.window;
  options["iterations"] = result.options.iterations;
  options["warmup"] = result.options.warmup;
  options["quick"] = result.options.quick;
  json["options"] = std::move(options);
  json["pairs_available"] = result.pairs_available;
  json["flows_emulated"] = result.flows_emulated;
  json["flows"] = result.flows_emulated
                      ? "emulated: one pair (ranks 0 -> 1) with f windows of messages in flight"
                      : "flow i: rank i sends to rank i + pairs_available";

  json["sizes"] = list_json(result.sizes, [](const SizeBandwidth& size) {
    OrderedJson entry;
    entry["bytes"] = size.bytes;
    entry["measurements"] = list_json(size.points, [](const FlowMeasurement& point) {
      OrderedJson p;
      p["flows"] = point.flows;
      p["messages_per_flow"] = point.messages_per_flow;
      p["round_time"] = summary_json(point.seconds, "_s");
      p["aggregate_bandwidth"] = summary_json(point.bandwidth, "_bytes_per_s");
      return p;
    });
    OrderedJson fit;
    fit["model"] = "aggregate(f) = R_Cb + (f - 1) * R_Ci over median bandwidths";
    fit["R_Cb"] = size.fit.r_cb;
    fit["R_Ci"] = size.fit.r_ci;
    fit["points"] = size.fit.points;
    fit["rms_relative_residual"] = size.fit.rms_relative_residual;
    fit["R_Ci_clamped"] = size.fit.r_ci_clamped;
    fit["clamp_reason"] = size.fit.clamp_reason;
    entry["fit"] = std::move(fit);
    return entry;
  });
  return json.dump(2) + "\n";
}

std::string node_calibration_to_json(const NodeCalibration& calibration,
                                     const NodeTransportFit& fit) {
  const NodeCalibrationOptions& o = calibration.options;
  OrderedJson run;
  run["tool"] = "haloflag_calibrate_node";
  run["date"] = calibration.date;
  run["host"] = calibration.host;
  run["command_line"] = calibration.command_line;
  OrderedJson json = head_json(kNodeFormat, std::move(run));
  json["gpu"] = calibration.gpu;
  json["clock"] = calibration.clock;
  OrderedJson options;
  options["gpu"] = o.gpu;
  options["sizes"] = o.sizes;
  options["iterations"] = o.iterations;
  options["warmup"] = o.warmup;
  options["copies_per_launch"] = o.copies_per_launch;
  options["threads"] = o.threads;
  options["flag_samples"] = o.flag_samples;
  options["round_trips_per_sample"] = o.round_trips_per_sample;
  options["flag_warmup_samples"] = o.flag_warmup_samples;
  options["poll_backoff_ns"] = o.poll_backoff_ns;
  options["timeout_s"] = o.timeout_seconds;
  options["quick"] = o.quick;
  json["options"] = std::move(options);

  OrderedJson copy;
  copy["method"] =
      "one block copies n bytes between two device buffers, 8-byte elements in rounds as the "
      "pack kernel moves them, then release-stores a flag; per copy = (time of a launch of "
      "copies_per_launch copies - time of a launch of one) / (copies_per_launch - 1), GPU events";
  copy["measurements"] = list_json(calibration.copies, [](const NodeCopyTiming& timing) {
    OrderedJson entry;
    entry["bytes"] = timing.bytes;
    entry["per_copy"] = summary_json(timing.per_copy_seconds, "_s");
    return entry;
  });
  OrderedJson copy_fit;
  copy_fit["model"] = "T = copy_latency + n / copy_bandwidth over the medians (weights 1/T^2)";
  copy_fit["copy_latency_s"] = fit.params.copy_latency;
  copy_fit["copy_bandwidth_bytes_per_s"] = fit.params.copy_bandwidth;
  copy_fit["points"] = fit.copy.points;
  copy_fit["rms_relative_residual"] = fit.copy.rms_relative_residual;
  copy_fit["clamped"] = fit.copy.clamped;
  copy_fit["clamp_reason"] = fit.copy.clamp_reason;
  copy["fit"] = std::move(copy_fit);
  json["copy"] = std::move(copy);

  OrderedJson flag;
  flag["method"] =
      "two blocks of one kernel pass an epoch back and forth through two flags in device "
      "memory (system-scope release store, acquire polls); one-way = device clock time of "
      "round_trips_per_sample round trips / (2 * round_trips_per_sample), per sample";
  flag["one_way"] = summary_json(calibration.flag_one_way_seconds, "_s");
  flag["flag_latency_s"] = fit.params.flag_latency;
  json["flag"] = std::move(flag);
  json[detail::kNodeTransportKey] = detail::node_transport_json(fit.params);
  return json.dump(2) + "\n";
}

void write_text(const std::filesystem::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw std::runtime_error(path.string() + ": cannot open for writing");
  out << text;
  out.close();
  if (!out) throw std::runtime_error(path.string() + ": write failed");
}

PingPongFit read_pingpong_fit(const std::filesystem::path& path) {
  detail::JsonDocument document(path);
  ObjectReader& top = document.top;
  PingPongFit result;
  result.source = document.source();
  top.expect_string("format", kPingPongFormat);
  if (auto run = top.object("run")) {
    result.date = run->string("date").value_or("");
    if (const Json* hosts = run->array("hosts"); hosts != nullptr && !hosts->empty() &&
                                                 (*hosts)[0].is_string()) {
      result.host = (*hosts)[0].get<std::string>();
    }
  }
  std::optional<PostalParams> eager;
  std::optional<PostalParams> rendezvous;
  if (auto fit = top.object("fit")) {
    result.method = fit->string("method").value_or("");
    result.threshold_bytes = fit->integer("threshold_bytes", 0).value_or(0);
    eager = read_postal_fit(*fit, "eager", result.notes);
    rendezvous = read_postal_fit(*fit, "rendezvous", result.notes);
  }
  document.problems.throw_if_any();
  result.postal = {*eager, *rendezvous};
  return result;
}

ConcurrentFit read_concurrent_fit(const std::filesystem::path& path) {
  detail::JsonDocument document(path);
  ObjectReader& top = document.top;
  Problems& problems = document.problems;
  ConcurrentFit result;
  result.source = document.source();
  top.expect_string("format", kConcurrentFormat);
  result.flows_emulated = top.boolean("flows_emulated").value_or(false);
  if (result.flows_emulated) {
    result.notes.push_back(
        "R_Ci is a stand-in: concurrent flows were emulated by messages in flight from one pair "
        "(run haloflag_calibrate_concurrent with >= 4 ranks to measure it)");
  }
  if (const Json* sizes = top.array("sizes")) {
    if (sizes->empty()) problems.add("sizes", "must hold at least one size");
    for (std::size_t i = 0; i < sizes->size(); ++i) {
      ObjectReader size((*sizes)[i], "sizes[" + std::to_string(i) + "]", problems);
      const auto bytes = size.integer("bytes", 1);
      std::optional<double> r_cb;
      std::optional<double> r_ci;
      if (auto fit = size.object("fit")) {
        r_cb = fit->positive_number("R_Cb");
        r_ci = fit->positive_number("R_Ci");
        if (fit->boolean("R_Ci_clamped", false).value_or(false) && bytes) {
          result.notes.push_back("concurrent fit at " + std::to_string(*bytes) +
                                 " B clamped: " + fit->string("clamp_reason", false).value_or("?"));
        }
      }
      if (bytes && r_cb && r_ci) result.sizes.push_back({*bytes, *r_cb, *r_ci});
    }
  }
  problems.throw_if_any();
  return result;
}

NodeFit read_node_fit(const std::filesystem::path& path) {
  detail::JsonDocument document(path);
  ObjectReader& top = document.top;
  NodeFit result;
  result.source = document.source();
  top.expect_string("format", kNodeFormat);
  if (auto run = top.object("run")) result.date = run->string("date").value_or("");
  result.gpu = top.string("gpu").value_or("");
  if (auto copy = top.object("copy")) {
    if (auto fit = copy->object("fit")) {
      if (fit->boolean("clamped", false).value_or(false)) {
        result.notes.push_back("node copy fit clamped: " +
                               fit->string("clamp_reason", false).value_or("?"));
      }
    }
  }
  const auto params = detail::read_node_transport(top, /*required=*/true);
  document.problems.throw_if_any();
  result.params = *params;
  return result;
}

BulkExchangeFit read_bulk_exchange_fit(const std::filesystem::path& path) {
  detail::JsonDocument document(path);
  ObjectReader& top = document.top;
  BulkExchangeFit result;
  result.source = document.source();
  top.expect_string("format", kBulkExchangeFormat);
  std::optional<double> alpha;
  std::optional<double> beta;
  if (auto fit = top.object("fit")) {
    alpha = fit->positive_number("alpha");
    beta = fit->positive_number("beta");
    if (fit->boolean("clamped", false).value_or(false)) {
      result.notes.push_back("bulk exchange fit clamped: " +
                             fit->string("clamp_reason", false).value_or("?"));
    }
  }
  document.problems.throw_if_any();
  result.copy = {*alpha, *beta};
  return result;
}

}  // namespace haloflag::model::calibration
