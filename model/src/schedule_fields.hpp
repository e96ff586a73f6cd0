// The "schedule" object of a parameter file (the prediction's terms) and the "fused" object it
// shares with pack/unpack table files, where haloflag_calibrate_pack_unpack writes it first
// (internal: not installed). Keys: docs/model.md.
#pragma once

#include <optional>

#include <nlohmann/json.hpp>

#include "haloflag/model/schedule_params.hpp"
#include "json_fields.hpp"

namespace haloflag::model::detail {

inline constexpr const char* kScheduleKey = "schedule";
inline constexpr const char* kFusedKey = "fused";

// Reads parent's "fused" object: pack_pinned, unpack_pinned, pack_device, unpack_device, each
// {latency_s, bytes_per_s} > 0. Empty when absent (a problem only when `required`) or bad.
std::optional<FusedKernelTimes> read_fused(ObjectReader& parent, bool required);
nlohmann::ordered_json fused_json(const FusedKernelTimes& fused);

// Reads parent's optional "schedule" object: launch_sync_s, graph_launch_sync_s, host_flag_s
// (> 0), fused, optionally mpi_copy {latency_s, seconds_per_byte} (> 0), optionally fixed_s:
// {strategy: {mpi: s, node: s}} with known strategy names (not embedded), each transport
// optional, seconds >= 0, and optionally node_grid: {flag strategy: {bytes_per_s > 0}}.
std::optional<ScheduleParams> read_schedule(ObjectReader& parent);
nlohmann::ordered_json schedule_json(const ScheduleParams& schedule);

}  // namespace haloflag::model::detail
