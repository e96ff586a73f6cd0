// The "node_transport" object: a parameter file holds one, and haloflag_calibrate_node writes one
// into its own file for the merge, so both go through this reader and writer (internal).
#pragma once

#include <optional>

#include <nlohmann/json.hpp>

#include "haloflag/model/link_params.hpp"
#include "json_fields.hpp"

namespace haloflag::model::detail {

inline constexpr const char* kNodeTransportKey = "node_transport";

// Reads parent's "node_transport" object: copy_bandwidth_bytes_per_s, copy_latency_s and
// flag_latency_s, each a number > 0, no other key. Empty when absent (a problem only when
// `required`) or when any field is bad (each problem reported with its key path).
std::optional<NodeTransportParams> read_node_transport(ObjectReader& parent, bool required);

nlohmann::ordered_json node_transport_json(const NodeTransportParams& params);

}  // namespace haloflag::model::detail
