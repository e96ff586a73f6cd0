#include "transports/node/node_field_mapping.hpp"

#include "deadline_collectives.hpp"
#include "haloflag/halo/errors.hpp"
#include "transports/node/node_device_plan.hpp"

namespace haloflag::halo::detail {

void NodeFieldMapping::map_first(const kernels::FieldSet& fields) {
  send_peers_.assign(layout_.send_peers().begin(), layout_.send_peers().end());
  export_fields_ = memory_.tries_device();
  first_ = memory_.share_fields(fields, send_peers_, export_fields_, refused_);
}

void NodeFieldMapping::lay_out_targets() {
  targets_.assign(layout_.node_peers().size() * kernels::kMaxFieldSets, kernels::FieldSet{});
  for (const auto& [peer, index] : layout_.peer_index()) {
    targets_[index * kernels::kMaxFieldSets] = first_of(peer);
  }
}

void NodeFieldMapping::map_fields(std::uint32_t slot, const kernels::FieldSet& fields,
                                  NodeDevicePlan* plan) {
  if (slot == 0 || slot >= static_cast<std::uint32_t>(kernels::kMaxFieldSets)) {
    throw ConfigError("map_fields: slot " + std::to_string(slot) + " is not one the node " +
                      "transport maps (1 to " + std::to_string(kernels::kMaxFieldSets - 1) + ")");
  }
  std::map<int, std::string> why_not;
  const std::map<int, kernels::FieldSet> mapped =
      memory_.share_fields(fields, send_peers_, export_fields_, why_not);
  // Each sender tells its receivers whether it mapped their fields: their direct_in.
  std::vector<std::vector<std::int32_t>> outgoing(static_cast<std::size_t>(node_.node_size()));
  for (const auto& [peer, target] : mapped) {
    outgoing[static_cast<std::size_t>(node_.node_rank_of(peer))].push_back(
        target.variable_count > 0 ? 1 : 0);
  }
  const std::vector<std::vector<std::int32_t>> incoming = all_to_all(
      outgoing, node_.comm(), timeout_, "telling the node's ranks which fields are mapped");
  if (plan == nullptr) return;
  const std::uint32_t bit = 1U << slot;
  const std::vector<int>& node_peers = layout_.node_peers();
  for (std::size_t i = 0; i < node_peers.size(); ++i) {
    kernels::NodePeerRoute& route = plan->peer(i);
    const int peer = node_peers[i];
    route.direct_out &= ~bit;
    route.direct_in &= ~bit;
    const auto found = mapped.find(peer);
    if (found != mapped.end() && found->second.variable_count > 0 && route.lines_out == 0) {
      const std::size_t at = i * kernels::kMaxFieldSets + slot;
      targets_[at] = found->second;
      plan->store_target_fields(at, targets_[at]);
      route.direct_out |= bit;
    }
    const auto& told = incoming[static_cast<std::size_t>(node_.node_rank_of(peer))];
    if (!told.empty() && told.front() != 0 && route.lines_in == 0) route.direct_in |= bit;
  }
  plan->store_peers();
}

}  // namespace haloflag::halo::detail
