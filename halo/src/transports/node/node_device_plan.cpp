#include "transports/node/node_device_plan.hpp"

#include "haloflag/notify/flag_line.hpp"
#include "transports/route_table_memory.hpp"

namespace haloflag::halo::detail {
namespace {

constexpr std::size_t kLine = notify::kFlagLineBytes;

}  // namespace

NodeDevicePlan::NodeDevicePlan(notify::ControlBlock& control) {
  arrival_id_ = control.register_array("node_arrival");
  ghosts_free_id_ = control.register_array("node_ghosts_free");
}

void NodeDevicePlan::upload(notify::Backend backend,
                            const std::vector<kernels::NodePeerRoute>& peers,
                            const std::vector<kernels::NodeSendRoute>& sends,
                            const std::vector<kernels::NodeRecvRoute>& recvs,
                            const NodePieceTable& table,
                            const std::vector<kernels::FieldSet>& target_fields,
                            bool relay_host_words) {
  // Counters, each on its own line: a pieces_sent per peer, announced, the relays of the words
  // in pinned host memory (two per peer), then a pieces_unpacked and an announced_to per peer.
  const std::size_t n = peers.size();
  counters_ = kernels::DeviceMemory(backend, kLine * (5 * n + 1));
  auto* lines = static_cast<std::byte*>(counters_.data());
  const auto line = [&](std::size_t i) {
    return reinterpret_cast<std::uint64_t*>(lines + kLine * i);
  };
  std::vector<kernels::NodePeerRoute> routes = peers;
  for (std::size_t i = 0; i < n; ++i) {
    routes[i].pieces_sent = line(i);
    routes[i].pieces_unpacked = line(3 * n + 1 + i);
    routes[i].announced_to = line(4 * n + 1 + i);
    if (relay_host_words) {
      routes[i].ghosts_free_relay = line(n + 1 + 2 * i);
      routes[i].arrival_relay = line(n + 2 + 2 * i);
    }
  }
  plan_.announced = line(n);

  // One allocation for the arrays, each at an offset suited to every element type.
  RouteTableLayout layout(64);
  const std::size_t peers_at = layout.place(sizeof(kernels::NodePeerRoute) * routes.size());
  const std::size_t sends_at = layout.place(sizeof(kernels::NodeSendRoute) * sends.size());
  const std::size_t recvs_at = layout.place(sizeof(kernels::NodeRecvRoute) * recvs.size());
  const std::size_t send_pieces_at =
      layout.place(sizeof(kernels::NodePiece) * table.send_pieces.size());
  const std::size_t recv_pieces_at =
      layout.place(sizeof(kernels::NodePiece) * table.recv_pieces.size());
  const std::size_t table_at = layout.place(sizeof(kernels::NodePlan));
  const std::size_t fields_at = layout.place(sizeof(kernels::FieldSet) * target_fields.size());
  plan_memory_ = kernels::DeviceMemory(backend, layout.bytes());
  const kernels::FieldSet* fields = upload_at(plan_memory_, target_fields, fields_at);
  for (std::size_t i = 0; i < n; ++i) routes[i].target_fields = fields + i * kernels::kMaxFieldSets;
  peers_at_ = peers_at;
  fields_at_ = fields_at;
  host_peers_ = routes;
  plan_.peers = upload_at(plan_memory_, routes, peers_at);
  plan_.sends = upload_at(plan_memory_, sends, sends_at);
  plan_.recvs = upload_at(plan_memory_, recvs, recvs_at);
  plan_.send_pieces = upload_at(plan_memory_, table.send_pieces, send_pieces_at);
  plan_.recv_pieces = upload_at(plan_memory_, table.recv_pieces, recv_pieces_at);
  plan_.peer_count = static_cast<std::uint32_t>(routes.size());
  plan_.send_piece_count = static_cast<std::uint32_t>(table.send_pieces.size());
  plan_.recv_piece_count = static_cast<std::uint32_t>(table.recv_pieces.size());
  plan_.arrival_id = arrival_id_;
  plan_.ghosts_free_id = ghosts_free_id_;
  // The table itself goes to the device too: the kernels' plan points at it (RouteTables).
  route_table_ = upload_at(plan_memory_, std::vector<kernels::NodePlan>{plan_}, table_at);
}

void NodeDevicePlan::store_target_fields(std::size_t at, const kernels::FieldSet& fields) {
  plan_memory_.copy_from_host(&fields, sizeof(kernels::FieldSet),
                              fields_at_ + sizeof(kernels::FieldSet) * at);
}

void NodeDevicePlan::store_peers() {
  plan_memory_.copy_from_host(host_peers_.data(),
                              sizeof(kernels::NodePeerRoute) * host_peers_.size(), peers_at_);
}

}  // namespace haloflag::halo::detail
