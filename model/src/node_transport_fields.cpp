#include "node_transport_fields.hpp"

namespace haloflag::model::detail {

namespace {

constexpr const char* kCopyBandwidth = "copy_bandwidth_bytes_per_s";
constexpr const char* kCopyLatency = "copy_latency_s";
constexpr const char* kFlagLatency = "flag_latency_s";

}  // namespace

std::optional<NodeTransportParams> read_node_transport(ObjectReader& parent, bool required) {
  auto reader = parent.object(kNodeTransportKey, required);
  if (!reader) return std::nullopt;
  const auto copy_bandwidth = reader->positive_number(kCopyBandwidth);
  const auto copy_latency = reader->positive_number(kCopyLatency);
  const auto flag_latency = reader->positive_number(kFlagLatency);
  reader->finish();
  if (!copy_bandwidth || !copy_latency || !flag_latency) return std::nullopt;
  return NodeTransportParams{*copy_latency, *copy_bandwidth, *flag_latency};
}

nlohmann::ordered_json node_transport_json(const NodeTransportParams& params) {
  nlohmann::ordered_json json;
  json[kCopyBandwidth] = params.copy_bandwidth;
  json[kCopyLatency] = params.copy_latency;
  json[kFlagLatency] = params.flag_latency;
  return json;
}

}  // namespace haloflag::model::detail
