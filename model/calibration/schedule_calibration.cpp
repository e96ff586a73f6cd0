#include "schedule_calibration.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <set>
#include <stdexcept>

#include "haloflag/halo/config_file.hpp"
#include "haloflag/halo/strategy.hpp"
#include "haloflag/model/errors.hpp"
#include "haloflag/model/strategy_prediction.hpp"
#include "json_fields.hpp"

namespace haloflag::model::calibration {

namespace {

using detail::Json;
using detail::ObjectReader;
using detail::Problems;

constexpr double kNano = 1e-9;
constexpr double kMicro = 1e-6;

// The median of one measurement of a notify_latency report, in seconds; empty with a problem
// when it is missing or malformed, empty without one when the report says it was not measured
// (the host backend launches no kernels).
std::optional<double> measured_median(const Json* measurements, const std::string& id,
                                      Problems& problems) {
  if (measurements != nullptr && measurements->is_array()) {
    for (std::size_t i = 0; i < measurements->size(); ++i) {
      const Json& entry = (*measurements)[i];
      if (!entry.is_object() || entry.value("id", "") != id) continue;
      if (!entry.value("measured", true)) return std::nullopt;
      ObjectReader reader(entry, "measurements[" + std::to_string(i) + "]", problems);
      auto summary = reader.object("summary_ns");
      if (!summary) return std::nullopt;
      const auto median = summary->positive_number("median");
      if (!median) return std::nullopt;
      return *median * kNano;
    }
  }
  problems.add("measurements", "no measurement with id \"" + id + "\"");
  return std::nullopt;
}

}  // namespace

LaunchFlagTerms read_launch_flag_terms(const std::filesystem::path& path) {
  detail::JsonDocument document(path);
  ObjectReader& top = document.top;
  Problems& problems = document.problems;
  top.expect_string("format", "haloflag-notify-latency");
  LaunchFlagTerms terms;
  terms.source = document.source();
  if (auto backend = top.object("backend")) {
    terms.gpu = backend->string("device_side", false).value_or("");
    terms.emulated = backend->boolean("emulated_on_cpu").value_or(false);
  }
  const Json* measurements = top.array("measurements");
  const auto launch = measured_median(measurements, "empty_kernel_launch_sync", problems);
  const auto graph = measured_median(measurements, "graph_launch_sync", problems);
  const auto round_trip = measured_median(measurements, "round_trip", problems);
  if (!round_trip) problems.add("measurements", "the flag round trip was not measured");
  problems.throw_if_any();
  terms.host_flag = *round_trip / 2;
  // Without kernels (the host backend) a launch is a flag to a waiting thread and back.
  terms.launch_sync = launch.value_or(*round_trip);
  terms.graph_launch_sync = graph.value_or(*round_trip);
  terms.launches_measured = launch.has_value() && graph.has_value();
  return terms;
}

ExchangeProbe read_exchange_probe(const std::filesystem::path& path) {
  detail::JsonDocument document(path);
  ObjectReader& top = document.top;
  Problems& problems = document.problems;
  ExchangeProbe probe;
  probe.source = document.source();
  top.expect_string("tool", "halo_bench");
  if (auto workload = top.object("workload")) {
    probe.config_file = workload->string("config_file").value_or("");
    const std::filesystem::path beside = path.parent_path() /
                                         std::filesystem::path(probe.config_file).filename();
    std::error_code error;
    if (!probe.config_file.empty() && !std::filesystem::exists(probe.config_file, error) &&
        std::filesystem::is_regular_file(beside, error)) {
      probe.config_file = beside.string();
    }
  }
  if (auto sharing = top.object("gpu_sharing", /*required=*/false)) {
    probe.ranks_per_gpu = static_cast<int>(sharing->integer("ranks_per_gpu", 1).value_or(1));
  }
  if (const Json* strategies = top.array("strategies")) {
    for (std::size_t i = 0; i < strategies->size(); ++i) {
      ObjectReader entry((*strategies)[i], "strategies[" + std::to_string(i) + "]", problems);
      const auto strategy = entry.string("strategy");
      const auto transport = entry.string("transport_used");
      const auto tuned = entry.boolean("tuned", false).value_or(false);
      auto summary = entry.object("summary_us");
      const auto median = summary ? summary->positive_number("median") : std::nullopt;
      if (!strategy || !transport || !median) continue;
      if (tuned || (*transport != "mpi" && *transport != "node")) continue;
      probe.rows.push_back({*strategy, *transport, *median * kMicro});
    }
  }
  if (problems.empty() && probe.rows.empty()) {
    problems.add("strategies", "no untuned strategy with an mpi or node transport");
  }
  problems.throw_if_any();
  return probe;
}

void add_schedule(MachineParams& params, const LaunchFlagTerms& terms, const FusedKernelTimes& fused,
                  const std::optional<PostalParams>& mpi_copy, const ExchangeProbe* probe,
                  std::vector<std::string>& notes) {
  ScheduleParams schedule;
  schedule.launch_sync = terms.launch_sync;
  schedule.graph_launch_sync = terms.graph_launch_sync;
  schedule.host_flag = terms.host_flag;
  schedule.fused = fused;
  schedule.mpi_copy = mpi_copy;
  if (!mpi_copy) {
    notes.push_back("schedule: no bulk exchange measured: the MPI copy within a node adds up the "
                    "messages' postal times");
  }
  notes.push_back("schedule: launch, graph launch and flag from " + terms.source +
                  (terms.gpu.empty() ? "" : " (" + terms.gpu + ")") +
                  (terms.emulated ? ": the host backend's, CPU threads standing in for a GPU" : "") +
                  (terms.launches_measured ? "" : "; no kernel launches there: a flag round trip "
                                                  "stands in for each"));
  if (probe == nullptr) {
    params.schedule = schedule;
    notes.push_back("schedule: no exchange probe: fixed costs are composed from the launch and "
                    "flag terms");
    return;
  }
  if (!params.mapping) {
    throw std::invalid_argument("the exchange probe needs a rank mapping (--ranks-per-node, "
                                "--ranks-per-socket)");
  }
  const halo::ExchangeConfig config = halo::read_config_file(probe->config_file);
  // The data phases alone: every fixed cost 0 while they are predicted. The node grid's term is
  // fitted later against these fixed costs, so here it counts nothing: the probe's pieces are
  // part of the node grid's fixed cost.
  for (const ExchangeProbe::Row& row : probe->rows) {
    schedule.fixed[row.strategy] = {0.0, 0.0};
    if (has_node_grid(halo::parse_strategy(row.strategy))) {
      schedule.node_grid[row.strategy] = std::numeric_limits<double>::infinity();
    }
  }
  params.schedule = schedule;
  std::map<std::string, FixedCost> fixed;
  for (const ExchangeProbe::Row& row : probe->rows) {
    const halo::Strategy strategy = halo::parse_strategy(row.strategy);
    if (!unmodelled_reason(strategy).empty()) continue;
    if (row.transport == "node" && !params.node_transport) {
      notes.push_back("schedule: the probe's " + row.strategy +
                      " over node left out: the file has no node_transport terms");
      continue;
    }
    const TransportChoice transport = row.transport == "node" ? TransportChoice::node
                                                              : TransportChoice::mpi;
    const StrategyPrediction data =
        predict_strategy(config, params, *params.mapping, strategy, transport, probe->ranks_per_gpu);
    double net = row.median - data.seconds;
    if (net < 0.0) {
      char note[200];
      std::snprintf(note, sizeof note,
                    "schedule: fixed cost of %s over %s clamped to 0: the probe's median %.2f us "
                    "is below its data phases' %.2f us",
                    row.strategy.c_str(), row.transport.c_str(), row.median / kMicro,
                    data.seconds / kMicro);
      notes.push_back(note);
      net = 0.0;
    }
    FixedCost& cost = fixed[row.strategy];
    (row.transport == "node" ? cost.node : cost.mpi) = net;
  }
  params.schedule->fixed = std::move(fixed);
  params.schedule->node_grid.clear();
  notes.push_back("schedule: fixed costs from the exchange probe " + probe->source + " (" +
                  probe->config_file + ", " + std::to_string(probe->ranks_per_gpu) +
                  " ranks per GPU): each strategy's median less its predicted data phases");
}

namespace {

// The bytes the node grid of the config's busiest rank moves in its busier direction.
std::int64_t busiest_direction_bytes(const halo::ExchangeConfig& config) {
  std::int64_t busiest = 0;
  for (const halo::RankMessages& messages : config.rank_messages) {
    std::int64_t sent = 0;
    std::int64_t received = 0;
    for (const halo::Message& m : messages.sends) sent += m.bytes;
    for (const halo::Message& m : messages.recvs) received += m.bytes;
    busiest = std::max({busiest, sent, received});
  }
  return busiest;
}

}  // namespace

void add_node_grid(MachineParams& params, const std::vector<ExchangeProbe>& probes,
                   std::vector<std::string>& notes) {
  if (!params.schedule) {
    throw std::invalid_argument("the node grid probes need the schedule terms (--notify and "
                                "--exchange-probe)");
  }
  // Per strategy, per probe: the bytes, the median net of the fixed cost, and the median.
  struct Point {
    double bytes;
    double net;
    double median;
  };
  std::map<std::string, std::vector<Point>> points;
  for (const ExchangeProbe& probe : probes) {
    const halo::ExchangeConfig config = halo::read_config_file(probe.config_file);
    const double bytes =
        static_cast<double>(busiest_direction_bytes(config)) * probe.ranks_per_gpu;
    for (const ExchangeProbe::Row& row : probe.rows) {
      if (row.transport != "node" || !has_node_grid(halo::parse_strategy(row.strategy))) continue;
      const auto fixed = params.schedule->fixed.find(row.strategy);
      if (fixed == params.schedule->fixed.end() || fixed->second.node < 0.0) {
        notes.push_back("node grid: " + row.strategy + " in " + probe.source +
                        " left out: no fixed cost over node from the exchange probe");
        continue;
      }
      points[row.strategy].push_back({bytes, row.median - fixed->second.node, row.median});
    }
  }
  for (const auto& [strategy, samples] : points) {
    std::set<double> sizes;
    for (const Point& p : samples) sizes.insert(p.bytes);
    if (sizes.size() < 2) {
      notes.push_back("node grid: " + strategy + " left out: fewer than 2 sizes");
      continue;
    }
    // net = bytes x seconds_per_byte, least squares weighted by 1 / median^2: the relative error
    // of the whole exchange's time, so that the small probes (whose net time is a little noise
    // on the fixed cost) weigh no more than their exchange time says.
    double xy = 0.0;
    double xx = 0.0;
    for (const Point& p : samples) {
      const double w = 1.0 / (p.median * p.median);
      xy += w * p.bytes * p.net;
      xx += w * p.bytes * p.bytes;
    }
    if (!(xy > 0.0)) {
      notes.push_back("node grid: " + strategy +
                      " left out: its medians do not grow with the bytes beyond its fixed cost");
      continue;
    }
    const double seconds_per_byte = xy / xx;
    double residual = 0.0;
    for (const Point& p : samples) {
      const double relative = (p.bytes * seconds_per_byte - p.net) / p.median;
      residual += relative * relative;
    }
    residual = std::sqrt(residual / static_cast<double>(samples.size()));
    params.schedule->node_grid[strategy] = 1.0 / seconds_per_byte;
    char note[260];
    std::snprintf(note, sizeof note,
                  "node grid: %s = fixed cost + bytes / %.1f GB/s, from %zu sizes of %.0f to %.0f "
                  "B (rms relative residual of the exchange time %.1f%%)",
                  strategy.c_str(), 1e-9 / seconds_per_byte, sizes.size(), *sizes.begin(),
                  *sizes.rbegin(), 100.0 * residual);
    notes.push_back(note);
  }
  if (params.schedule->node_grid.empty()) {
    throw std::invalid_argument("node grid probes: no flag strategy over node has 2 usable sizes");
  }
}

}  // namespace haloflag::model::calibration
