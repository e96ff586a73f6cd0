// Internal: direct placement's FieldSets (docs/design.md, "Node transport memory"). Per node peer
// this rank sends to, the peer's FieldSet of each slot mapped here: the first at set-up, the
// others by map_fields. They are kept as the device half's target_fields array, and map_fields
// rewrites a slot's bits of the device half's peers: direct_out (this rank mapped the peer's
// fields) and direct_in (the peer mapped this rank's).
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "haloflag/kernels/field_set.hpp"
#include "transports/node/node_discovery.hpp"
#include "transports/node/node_memory_sharing.hpp"
#include "transports/node/node_region_layout.hpp"

namespace haloflag::halo::detail {

class NodeDevicePlan;

class NodeFieldMapping {
 public:
  NodeFieldMapping(const NodeDiscovery& node, const NodeRegionLayout& layout,
                   NodeMemorySharing& memory, std::chrono::nanoseconds timeout)
      : node_(node), layout_(layout), memory_(memory), timeout_(timeout) {}

  // Set-up, collective over the node: exports `fields` (slot 0) where the memory is offered
  // through IPC, and maps those of the peers this rank sends to.
  void map_first(const kernels::FieldSet& fields);
  // Node peer `peer`'s slot 0 as mapped here (variable_count 0 where not; it must be a peer this
  // rank sends to), and why a peer's is not mapped.
  const kernels::FieldSet& first_of(int peer) const { return first_.at(peer); }
  const std::map<int, std::string>& refused() const { return refused_; }
  // The device half's array, [peer index * kMaxFieldSets + slot]: each node peer's slot 0.
  void lay_out_targets();
  const std::vector<kernels::FieldSet>& targets() const { return targets_; }

  // NodeTransport::map_fields; `plan`: the device half to rewrite, null where this rank has no
  // node message (the collective steps run all the same).
  void map_fields(std::uint32_t slot, const kernels::FieldSet& fields, NodeDevicePlan* plan);

 private:
  const NodeDiscovery& node_;
  const NodeRegionLayout& layout_;
  NodeMemorySharing& memory_;
  std::chrono::nanoseconds timeout_;
  std::vector<int> send_peers_;  // the node peers this rank sends to, in order
  bool export_fields_ = false;
  std::map<int, kernels::FieldSet> first_;
  std::map<int, std::string> refused_;
  // As uploaded at the device plan's fields_at(): what map_fields copies a slot from again.
  std::vector<kernels::FieldSet> targets_;
};

}  // namespace haloflag::halo::detail
