// Internal: the node transport's device half in device-readable memory (docs/design.md, "The node
// transport", and "Every flag, relay and counter"): one allocation for the route table
// (kernels::NodePlan) and the arrays it points to (peers, sends, receives, pieces, the peers'
// target FieldSets), and the counters the node grid keeps, each on its own line. map_fields
// rewrites the peers and their FieldSets there in place.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "haloflag/kernels/device_memory.hpp"
#include "haloflag/kernels/field_set.hpp"
#include "haloflag/kernels/transports/node/node_route.hpp"
#include "haloflag/notify/control_block.hpp"
#include "transports/node/node_piece_table.hpp"

namespace haloflag::halo::detail {

class NodeDevicePlan {
 public:
  // Registers the node's words with `control`: node_arrival, then node_ghosts_free.
  explicit NodeDevicePlan(notify::ControlBlock& control);
  NodeDevicePlan(const NodeDevicePlan&) = delete;
  NodeDevicePlan& operator=(const NodeDevicePlan&) = delete;

  // Uploads the routes, pieces and counters of the device half, and `target_fields`;
  // `relay_host_words`: this rank's words are in pinned host memory, and the node grid's block 0
  // relays them.
  void upload(notify::Backend backend, const std::vector<kernels::NodePeerRoute>& peers,
              const std::vector<kernels::NodeSendRoute>& sends,
              const std::vector<kernels::NodeRecvRoute>& recvs, const NodePieceTable& table,
              const std::vector<kernels::FieldSet>& target_fields, bool relay_host_words);

  // The route table, in device-readable memory; null until uploaded.
  const kernels::NodePlan* route_table() const { return route_table_; }
  std::uint32_t send_pieces() const { return plan_.send_piece_count; }
  std::uint32_t recv_pieces() const { return plan_.recv_piece_count; }

  // The device half's peers as uploaded (a host copy), and map_fields' rewriting of them: a
  // peer's FieldSet at `at` of the target_fields array (`fields` must stay where it is until the
  // copy is done: the caller's kept array), then every peer at once.
  const std::vector<kernels::NodePeerRoute>& peers() const { return host_peers_; }
  kernels::NodePeerRoute& peer(std::size_t index) { return host_peers_[index]; }
  void store_target_fields(std::size_t at, const kernels::FieldSet& fields);
  void store_peers();

 private:
  std::uint32_t arrival_id_ = 0;
  std::uint32_t ghosts_free_id_ = 0;
  kernels::DeviceMemory plan_memory_;
  kernels::DeviceMemory counters_;
  kernels::NodePlan plan_;  // host copy of the table
  const kernels::NodePlan* route_table_ = nullptr;
  std::vector<kernels::NodePeerRoute> host_peers_;
  std::size_t peers_at_ = 0;  // where the peers and the target FieldSets are in plan_memory_
  std::size_t fields_at_ = 0;
};

}  // namespace haloflag::halo::detail
