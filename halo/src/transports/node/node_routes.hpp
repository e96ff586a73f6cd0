// Internal: the node transport's routes (docs/design.md, "Node transport memory"). At set-up each
// receiver tells its node senders, per receive, where the message lands (RouteEntry), and each
// node peer where the words that peer writes are (PeerEntry); from what it is told, each rank
// routes the device half's peers, receives and sends, and cuts its node messages into pieces.
// Peers that disagree (on the transport, a tag, a count of elements) are a problem, kept.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "haloflag/kernels/message_layout.hpp"
#include "haloflag/kernels/transports/node/node_route.hpp"
#include "transports/node/node_discovery.hpp"
#include "transports/node/node_field_mapping.hpp"
#include "transports/node/node_memory_sharing.hpp"
#include "transports/node/node_piece_table.hpp"
#include "transports/node/node_region_layout.hpp"
#include "transports/node/node_set_up_inputs.hpp"
#include "transports/node/node_signals.hpp"

namespace haloflag::halo::detail {

// One receive of a rank, as it tells the sender at set-up. Offsets are bytes from the start of
// the receiver's region (device memory when in_device, else its shared segment's region).
struct RouteEntry {
  std::int32_t tag = 0;
  std::int32_t node = 0;       // the receiver carries this peer's messages over the node transport
  std::int32_t in_device = 0;  // the region is the receiver's device memory
  std::int32_t through_buffer = 0;  // into the buffer even in an epoch placed directly
  std::int64_t bytes = 0;
  std::int64_t data_offset = 0;
  std::int64_t mailbox_offset = 0;  // in the shared segment: arrived line; unpacked line follows
  kernels::MessageLayout layout{};  // the receiver's layout: where direct placement writes
};

// What a rank tells each node peer about the words the peer writes in its region.
struct PeerEntry {
  std::int32_t in_device = 0;
  std::int32_t mapped_fields = 0;  // this rank mapped the peer's fields (it will place directly)
  std::int32_t lines = 0;          // this rank takes the peer's messages in lines
  std::int32_t unused = 0;
  std::int64_t arrival_offset = -1;      // the peer stores its arrivals here
  std::int64_t ghosts_free_offset = -1;  // the peer stores its ghosts_free here
};

class NodeRoutes {
 public:
  NodeRoutes(std::size_t send_count, std::size_t recv_count, const NodeDiscovery& node,
             const NodeRegionLayout& layout, const NodeMemorySharing& memory,
             const NodeFieldMapping& fields, std::chrono::nanoseconds timeout);

  // Set-up steps, in this order. Collective over the node: tell each sender where its messages
  // go and each node peer where its words are (two all-to-alls, routes first).
  void exchange(const NodeSetUpInputs& in);
  // Some node peer said its region is not in its device memory.
  bool peer_region_in_host() const;
  // Once the segments are registered: the device half's peers, receives and sends, with their
  // mailboxes opened in `signals`; a disagreement goes to `problems`.
  void route(const NodeSetUpInputs& in, NodeSignals& signals, std::vector<std::string>& problems);
  // Cuts the node messages into pieces and counts them per peer and route.
  NodePieceTable cut_pieces(const NodeSetUpInputs& in);

  bool node_send(std::size_t m) const { return sends_[m].peer != kernels::kNoNodePeer; }
  bool node_recv(std::size_t r) const { return recvs_[r].peer != kernels::kNoNodePeer; }
  bool any() const { return node_sends_ + node_recvs_ > 0; }
  bool any_lines() const {
    return std::any_of(peer_routes_.begin(), peer_routes_.end(), [](const auto& route) {
      return route.lines_in != 0 || route.lines_out != 0;
    });
  }

  const std::vector<kernels::NodePeerRoute>& peer_routes() const { return peer_routes_; }
  const std::vector<kernels::NodeSendRoute>& sends() const { return sends_; }
  const std::vector<kernels::NodeRecvRoute>& recvs() const { return recvs_; }
  // Offset of each routed peer's arrival line in this rank's region, in peer order.
  const std::vector<std::int64_t>& peer_lines() const { return peer_lines_; }
  // names.send(m) and names.recv(r) of each node message.
  const std::string& send_text(std::size_t m) const { return send_text_[m]; }
  const std::string& recv_text(std::size_t r) const { return recv_text_[r]; }

 private:
  void route_peers(std::vector<std::string>& problems);
  void route_receives(const NodeSetUpInputs& in, NodeSignals& signals);
  void route_sends(const NodeSetUpInputs& in, NodeSignals& signals,
                   std::vector<std::string>& problems);

  const NodeDiscovery& node_;
  const NodeRegionLayout& layout_;
  const NodeMemorySharing& memory_;
  const NodeFieldMapping& fields_;
  std::chrono::nanoseconds timeout_;
  // exchange(): what the node's ranks told this one, by node rank.
  std::vector<std::vector<RouteEntry>> incoming_;
  std::vector<std::vector<PeerEntry>> peer_incoming_;
  std::byte* my_region_ = nullptr;
  std::vector<kernels::NodePeerRoute> peer_routes_;
  std::vector<kernels::NodeSendRoute> sends_;
  std::vector<kernels::NodeRecvRoute> recvs_;
  std::vector<std::uint32_t> send_peer_;  // node peer index of each send; kNoNodePeer over MPI
  std::vector<std::uint32_t> recv_peer_;
  std::vector<std::int64_t> peer_lines_;
  std::vector<std::string> send_text_;
  std::vector<std::string> recv_text_;
  std::size_t node_sends_ = 0;
  std::size_t node_recvs_ = 0;
};

}  // namespace haloflag::halo::detail
