#include "schedule_fields.hpp"

#include <stdexcept>
#include <string>

#include "haloflag/halo/strategy.hpp"
#include "haloflag/model/strategy_prediction.hpp"

namespace haloflag::model::detail {

namespace {

constexpr const char* kLatency = "latency_s";
constexpr const char* kBandwidth = "bytes_per_s";
constexpr const char* kLaunchSync = "launch_sync_s";
constexpr const char* kGraphLaunchSync = "graph_launch_sync_s";
constexpr const char* kHostFlag = "host_flag_s";
constexpr const char* kFixed = "fixed_s";
constexpr const char* kMpiCopy = "mpi_copy";
constexpr const char* kPerByte = "seconds_per_byte";
constexpr const char* kNodeGrid = "node_grid";

std::optional<FusedKernelTime> read_kernel_time(ObjectReader& fused, const char* key) {
  auto reader = fused.object(key);
  if (!reader) return std::nullopt;
  const auto latency = reader->positive_number(kLatency);
  const auto bandwidth = reader->positive_number(kBandwidth);
  reader->finish();
  if (!latency || !bandwidth) return std::nullopt;
  return FusedKernelTime{*latency, *bandwidth};
}

nlohmann::ordered_json kernel_time_json(const FusedKernelTime& time) {
  nlohmann::ordered_json json;
  json[kLatency] = time.latency;
  json[kBandwidth] = time.bandwidth;
  return json;
}

// Seconds >= 0: a fixed cost net of the data terms may come out as nothing.
std::optional<double> seconds_at(ObjectReader& reader, const char* key) {
  const Json* value = reader.get(key, /*required=*/false);
  if (value == nullptr) return std::nullopt;
  if (!value->is_number() || !(value->get<double>() >= 0.0)) {
    reader.problems().add(reader.path_of(key), "must be a number >= 0 (got " + describe(*value) + ")");
    return std::nullopt;
  }
  return value->get<double>();
}

std::optional<std::map<std::string, FixedCost>> read_fixed(ObjectReader& schedule) {
  std::map<std::string, FixedCost> fixed;
  auto reader = schedule.object(kFixed, /*required=*/false);
  if (!reader) return fixed;
  bool ok = true;
  for (const auto& [name, value] : reader->members()) {
    const std::string path = reader->path_of(name);
    try {
      const std::string unmodelled = unmodelled_reason(halo::parse_strategy(name));
      if (!unmodelled.empty()) throw std::invalid_argument(unmodelled);
    } catch (const std::invalid_argument& error) {
      reader->problems().add(path, std::string("not a strategy with a prediction: ") + error.what());
      ok = false;
      continue;
    }
    ObjectReader per_transport(*value, path, reader->problems());
    FixedCost cost;
    cost.mpi = seconds_at(per_transport, "mpi").value_or(-1.0);
    cost.node = seconds_at(per_transport, "node").value_or(-1.0);
    per_transport.finish();
    fixed[name] = cost;
  }
  if (!ok) return std::nullopt;
  return fixed;
}

std::optional<std::map<std::string, double>> read_node_grid(ObjectReader& schedule) {
  std::map<std::string, double> grid;
  auto reader = schedule.object(kNodeGrid, /*required=*/false);
  if (!reader) return grid;
  bool ok = true;
  for (const auto& [name, value] : reader->members()) {
    const std::string path = reader->path_of(name);
    bool flag_strategy = false;
    try {
      flag_strategy = has_node_grid(halo::parse_strategy(name));
    } catch (const std::invalid_argument&) {  // not a strategy at all: said below
    }
    if (!flag_strategy) {
      reader->problems().add(path, "not a flag strategy (stream_notify, stacked_notify, resident)");
      ok = false;
      continue;
    }
    ObjectReader term(*value, path, reader->problems());
    const auto bandwidth = term.positive_number(kBandwidth);
    term.finish();
    if (!bandwidth) {
      ok = false;
      continue;
    }
    grid[name] = *bandwidth;
  }
  if (!ok) return std::nullopt;
  return grid;
}

}  // namespace

std::optional<FusedKernelTimes> read_fused(ObjectReader& parent, bool required) {
  auto reader = parent.object(kFusedKey, required);
  if (!reader) return std::nullopt;
  const auto pack_pinned = read_kernel_time(*reader, "pack_pinned");
  const auto unpack_pinned = read_kernel_time(*reader, "unpack_pinned");
  const auto pack_device = read_kernel_time(*reader, "pack_device");
  const auto unpack_device = read_kernel_time(*reader, "unpack_device");
  reader->finish();
  if (!pack_pinned || !unpack_pinned || !pack_device || !unpack_device) return std::nullopt;
  return FusedKernelTimes{*pack_pinned, *unpack_pinned, *pack_device, *unpack_device};
}

nlohmann::ordered_json fused_json(const FusedKernelTimes& fused) {
  nlohmann::ordered_json json;
  json["pack_pinned"] = kernel_time_json(fused.pack_pinned);
  json["unpack_pinned"] = kernel_time_json(fused.unpack_pinned);
  json["pack_device"] = kernel_time_json(fused.pack_device);
  json["unpack_device"] = kernel_time_json(fused.unpack_device);
  return json;
}

std::optional<ScheduleParams> read_schedule(ObjectReader& parent) {
  auto reader = parent.object(kScheduleKey, /*required=*/false);
  if (!reader) return std::nullopt;
  const auto launch_sync = reader->positive_number(kLaunchSync);
  const auto graph_launch_sync = reader->positive_number(kGraphLaunchSync);
  const auto host_flag = reader->positive_number(kHostFlag);
  const auto fused = read_fused(*reader, /*required=*/true);
  std::optional<PostalParams> mpi_copy;
  bool mpi_copy_ok = true;
  if (auto copy = reader->object(kMpiCopy, /*required=*/false)) {
    const auto latency = copy->positive_number(kLatency);
    const auto per_byte = copy->positive_number(kPerByte);
    copy->finish();
    if (latency && per_byte) {
      mpi_copy = PostalParams{*latency, *per_byte};
    } else {
      mpi_copy_ok = false;
    }
  }
  const auto fixed = read_fixed(*reader);
  const auto node_grid = read_node_grid(*reader);
  reader->finish();
  if (!launch_sync || !graph_launch_sync || !host_flag || !fused || !fixed || !mpi_copy_ok ||
      !node_grid) {
    return std::nullopt;
  }
  return ScheduleParams{*launch_sync, *graph_launch_sync, *host_flag, *fused, mpi_copy, *fixed,
                        *node_grid};
}

nlohmann::ordered_json schedule_json(const ScheduleParams& schedule) {
  nlohmann::ordered_json json;
  json[kLaunchSync] = schedule.launch_sync;
  json[kGraphLaunchSync] = schedule.graph_launch_sync;
  json[kHostFlag] = schedule.host_flag;
  json[kFusedKey] = fused_json(schedule.fused);
  if (schedule.mpi_copy) {
    json[kMpiCopy] = {{kLatency, schedule.mpi_copy->alpha}, {kPerByte, schedule.mpi_copy->beta}};
  }
  if (!schedule.fixed.empty()) {
    nlohmann::ordered_json fixed;
    for (const auto& [name, cost] : schedule.fixed) {
      nlohmann::ordered_json per_transport = nlohmann::ordered_json::object();
      if (cost.mpi >= 0.0) per_transport["mpi"] = cost.mpi;
      if (cost.node >= 0.0) per_transport["node"] = cost.node;
      fixed[name] = std::move(per_transport);
    }
    json[kFixed] = std::move(fixed);
  }
  if (!schedule.node_grid.empty()) {
    nlohmann::ordered_json grid;
    for (const auto& [name, bandwidth] : schedule.node_grid) grid[name] = {{kBandwidth, bandwidth}};
    json[kNodeGrid] = std::move(grid);
  }
  return json;
}

}  // namespace haloflag::model::detail
