#include "schedule_calibration.hpp"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <map>
#include <stdexcept>

#include "haloflag/halo/config_file.hpp"
#include "haloflag/halo/strategy.hpp"
#include "haloflag/model/errors.hpp"
#include "haloflag/model/postal_fit.hpp"
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
  const std::string source = path.string();
  const Json root = detail::parse_json(detail::read_text_file(source), source);
  Problems problems(source);
  ObjectReader top(root, "", problems);
  top.expect_string("format", "haloflag-notify-latency");
  LaunchFlagTerms terms;
  terms.source = source;
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
  const std::string source = path.string();
  const Json root = detail::parse_json(detail::read_text_file(source), source);
  Problems problems(source);
  ObjectReader top(root, "", problems);
  ExchangeProbe probe;
  probe.source = source;
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
    if (has_node_grid(row.strategy)) {
      schedule.node_grid[row.strategy] = {0.0, std::numeric_limits<double>::infinity()};
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
  // Per strategy: the sizes and the medians net of the fixed cost.
  std::map<std::string, std::pair<std::vector<std::int64_t>, std::vector<double>>> points;
  for (const ExchangeProbe& probe : probes) {
    const halo::ExchangeConfig config = halo::read_config_file(probe.config_file);
    const std::int64_t bytes = busiest_direction_bytes(config) * probe.ranks_per_gpu;
    for (const ExchangeProbe::Row& row : probe.rows) {
      if (row.transport != "node" || !has_node_grid(row.strategy)) continue;
      const auto fixed = params.schedule->fixed.find(row.strategy);
      if (fixed == params.schedule->fixed.end() || fixed->second.node < 0.0) {
        notes.push_back("node grid: " + row.strategy + " in " + probe.source +
                        " left out: no fixed cost over node from the exchange probe");
        continue;
      }
      const double net = row.median - fixed->second.node;
      if (!(net > 0.0)) {
        char note[240];
        std::snprintf(note, sizeof note,
                      "node grid: %s in %s left out: its median %.2f us is not above its fixed "
                      "cost %.2f us",
                      row.strategy.c_str(), probe.source.c_str(), row.median / kMicro,
                      fixed->second.node / kMicro);
        notes.push_back(note);
        continue;
      }
      points[row.strategy].first.push_back(bytes);
      points[row.strategy].second.push_back(net);
    }
  }
  for (const auto& [strategy, sizes_and_times] : points) {
    const auto& [sizes, times] = sizes_and_times;
    if (sizes.size() < 2 || std::all_of(sizes.begin(), sizes.end(),
                                        [&](std::int64_t b) { return b == sizes.front(); })) {
      notes.push_back("node grid: " + strategy + " left out: fewer than 2 sizes");
      continue;
    }
    const PostalFit fit = fit_postal(sizes, times);
    params.schedule->node_grid[strategy] = {fit.params.alpha, 1.0 / fit.params.beta};
    char note[260];
    std::snprintf(note, sizeof note,
                  "node grid: %s = %.2f us + bytes / %.1f GB/s, from %d sizes of %lld to %lld B "
                  "(rms relative residual %.1f%%%s)",
                  strategy.c_str(), fit.params.alpha / kMicro, 1e-9 / fit.params.beta, fit.points,
                  static_cast<long long>(fit.min_bytes), static_cast<long long>(fit.max_bytes),
                  100.0 * fit.rms_relative_residual,
                  fit.clamped ? (", " + fit.clamp_reason).c_str() : "");
    notes.push_back(note);
  }
  if (params.schedule->node_grid.empty()) {
    throw std::invalid_argument("node grid probes: no flag strategy over node has 2 usable sizes");
  }
}

}  // namespace haloflag::model::calibration
