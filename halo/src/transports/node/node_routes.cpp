#include "transports/node/node_routes.hpp"

#include "deadline_collectives.hpp"
#include "haloflag/kernels/kernel_runner.hpp"
#include "transports/piece_grid_size.hpp"

namespace haloflag::halo::detail {
namespace {

// Arrival words count elements where the pair's GPUs add into each other's device memory
// natively (and on the host backend, whose shared memory takes atomics); elsewhere they hold
// the epoch.
bool counting_pair(const NodeDiscovery& node, int peer, bool region_in_device) {
  if (!node.gpu()) return true;
  return region_in_device && kernels::native_peer_atomics(node.bus_id_of(peer));
}

}  // namespace

NodeRoutes::NodeRoutes(std::size_t send_count, std::size_t recv_count, const NodeDiscovery& node,
                       const NodeRegionLayout& layout, const NodeMemorySharing& memory,
                       const NodeFieldMapping& fields, std::chrono::nanoseconds timeout)
    : node_(node),
      layout_(layout),
      memory_(memory),
      fields_(fields),
      timeout_(timeout),
      sends_(send_count),
      recvs_(recv_count) {}

void NodeRoutes::exchange(const NodeSetUpInputs& in) {
  std::vector<std::vector<RouteEntry>> outgoing(static_cast<std::size_t>(node_.node_size()));
  for (std::size_t r = 0; r < in.messages.recvs.size(); ++r) {
    const Message& m = in.messages.recvs[r];
    if (!node_.on_node(m.peer)) continue;
    RouteEntry entry;
    entry.tag = m.tag;
    entry.node = layout_.by_node(m.peer) ? 1 : 0;
    entry.bytes = m.bytes;
    entry.mailbox_offset = NodeSignals::mailbox_offset(r);
    if (entry.node) {
      entry.in_device = memory_.in_device() ? 1 : 0;
      entry.data_offset = layout_.data_offset(r);
      entry.layout = in.layouts.recvs[r];
      entry.through_buffer = layout_.through_buffer()[r] ? 1 : 0;
    }
    outgoing[static_cast<std::size_t>(node_.node_rank_of(m.peer))].push_back(entry);
  }
  incoming_ = all_to_all(outgoing, node_.comm(), timeout_, "exchanging routes");
  std::vector<std::vector<PeerEntry>> peer_outgoing(static_cast<std::size_t>(node_.node_size()));
  for (const auto& [peer, index] : layout_.peer_index()) {
    PeerEntry entry;
    entry.in_device = memory_.in_device() ? 1 : 0;
    entry.mapped_fields = fields_.first_of(peer).variable_count > 0 ? 1 : 0;
    entry.lines = layout_.takes_lines(peer) ? 1 : 0;
    entry.arrival_offset = NodeRegionLayout::arrival_line(index);
    entry.ghosts_free_offset = NodeRegionLayout::ghosts_free_line(index);
    peer_outgoing[static_cast<std::size_t>(node_.node_rank_of(peer))].push_back(entry);
  }
  peer_incoming_ = all_to_all(peer_outgoing, node_.comm(), timeout_, "exchanging node words");
}

bool NodeRoutes::peer_region_in_host() const {
  for (const auto& entries : peer_incoming_) {
    for (const PeerEntry& e : entries) {
      if (!e.in_device) return true;
    }
  }
  return false;
}

void NodeRoutes::route(const NodeSetUpInputs& in, NodeSignals& signals,
                       std::vector<std::string>& problems) {
  my_region_ = layout_.node_peers().empty()
                   ? nullptr
                   : memory_.region_of(node_.node_rank(), memory_.in_device());
  route_peers(problems);
  route_receives(in, signals);
  route_sends(in, signals, problems);
}

// The peers of the device half: where this rank's words and each peer's are, as the peer said.
void NodeRoutes::route_peers(std::vector<std::string>& problems) {
  peer_routes_.resize(layout_.node_peers().size());
  for (const auto& [peer, index] : layout_.peer_index()) {
    const int q = node_.node_rank_of(peer);
    const auto& entries = peer_incoming_[static_cast<std::size_t>(q)];
    if (entries.size() != 1) {
      problems.push_back("peers disagree on the transport: this rank carries its messages with "
                         "peer " + std::to_string(peer) + " over node, peer " +
                         std::to_string(peer) + " over mpi; give both the same "
                         "ExchangeOptions::transport and HALOFLAG_NODE_SIZE");
      continue;
    }
    kernels::NodePeerRoute& route = peer_routes_[index];
    std::byte* there = memory_.region_of(q, entries[0].in_device != 0);
    if (there == nullptr) {
      problems.push_back("peer " + std::to_string(peer) +
                         "'s node memory is not mapped in this rank");
      continue;
    }
    const std::int64_t arrival = NodeRegionLayout::arrival_line(index);
    const std::int64_t ghosts_free = NodeRegionLayout::ghosts_free_line(index);
    route.arrival_there = reinterpret_cast<std::uint64_t*>(there + entries[0].arrival_offset);
    route.ghosts_free_there =
        reinterpret_cast<std::uint64_t*>(there + entries[0].ghosts_free_offset);
    route.arrival_here = reinterpret_cast<const std::uint64_t*>(my_region_ + arrival);
    route.ghosts_free_here = reinterpret_cast<const std::uint64_t*>(my_region_ + ghosts_free);
    route.direct_out = fields_.first_of(peer).variable_count > 0 ? 1 : 0;
    route.direct_in = entries[0].mapped_fields != 0 ? 1 : 0;
    route.counts_in = counting_pair(node_, peer, memory_.in_device()) ? 1 : 0;
    route.counts_out = counting_pair(node_, peer, entries[0].in_device != 0) ? 1 : 0;
    // A pair in lines is never placed directly, whatever is mapped.
    route.lines_in = layout_.takes_lines(peer) ? 1 : 0;
    route.lines_out = entries[0].lines != 0 ? 1 : 0;
    if (route.lines_in != 0) route.direct_in = 0;
    if (route.lines_out != 0) route.direct_out = 0;
    peer_lines_.push_back(arrival);
  }
}

// This rank's receives: their mailboxes (every receive from the node) and, for the node ones,
// where their data lands in this rank's region.
void NodeRoutes::route_receives(const NodeSetUpInputs& in, NodeSignals& signals) {
  recv_peer_.assign(in.messages.recvs.size(), kernels::kNoNodePeer);
  recv_text_.resize(in.messages.recvs.size());
  for (std::size_t r = 0; r < in.messages.recvs.size(); ++r) {
    const Message& m = in.messages.recvs[r];
    if (node_.on_node(m.peer)) signals.open_receive(r, memory_.segment(node_.node_rank()));
    if (layout_.data_offset(r) < 0) continue;
    recv_peer_[r] = layout_.index_of(m.peer);
    recvs_[r].data = my_region_ + layout_.data_offset(r);
    recvs_[r].peer = recv_peer_[r];
    recvs_[r].through_buffer = layout_.through_buffer()[r] ? 1 : 0;
    recv_text_[r] = in.names.recv(r);
    ++node_recvs_;
  }
}

// This rank's sends, matched by tag with what their receivers said; a mismatch is a problem.
void NodeRoutes::route_sends(const NodeSetUpInputs& in, NodeSignals& signals,
                             std::vector<std::string>& problems) {
  const RankMessages& messages = in.messages;
  const MessageNames& names = in.names;
  send_peer_.assign(messages.sends.size(), kernels::kNoNodePeer);
  send_text_.resize(messages.sends.size());
  for (std::size_t m = 0; m < messages.sends.size(); ++m) {
    const Message& send = messages.sends[m];
    if (!node_.on_node(send.peer)) continue;
    const int q = node_.node_rank_of(send.peer);
    const RouteEntry* entry = nullptr;
    for (const RouteEntry& listed : incoming_[static_cast<std::size_t>(q)]) {
      if (listed.tag == send.tag) entry = &listed;
    }
    if (entry == nullptr) {
      problems.push_back(names.send(m) + ": peer " + std::to_string(send.peer) +
                         " lists no such receive for the node transport");
      continue;
    }
    const bool by_node = layout_.by_node(send.peer);
    if ((entry->node != 0) != by_node) {
      const std::string peer = std::to_string(send.peer);
      problems.push_back("peers disagree on the transport: this rank carries its messages with "
                         "peer " + peer + " over " + (by_node ? "node" : "mpi") + ", peer " + peer +
                         " over " + (entry->node ? "node" : "mpi") + " (" + names.send(m) +
                         "); give both the same ExchangeOptions::transport and HALOFLAG_NODE_SIZE");
      continue;
    }
    if (!entry->node) continue;
    if (entry->layout.element_count() != in.layouts.sends[m].element_count()) {
      problems.push_back(names.send(m) + ": peer " + std::to_string(send.peer) + " unpacks " +
                         std::to_string(entry->layout.element_count()) +
                         " elements, this rank packs " +
                         std::to_string(in.layouts.sends[m].element_count()));
      continue;
    }
    signals.open_send(m, memory_.segment(q), entry->mailbox_offset);
    std::byte* there = memory_.region_of(q, entry->in_device != 0);
    send_peer_[m] = layout_.index_of(send.peer);
    sends_[m].target = entry->layout;
    sends_[m].target_buffer = there + entry->data_offset;
    sends_[m].peer = send_peer_[m];
    sends_[m].through_buffer = entry->through_buffer != 0 ? 1 : 0;
    send_text_[m] = names.send(m);
    ++node_sends_;
  }
}

NodePieceTable NodeRoutes::cut_pieces(const NodeSetUpInputs& in) {
  const MessageLayouts& layouts = in.layouts;
  const NodePieceTable table =
      cut_into_pieces(layouts, send_peer_, recv_peer_, layout_.through_buffer(),
                      layout_.node_peers().size(), piece_grid_piece_bytes(layouts, in.options));
  for (std::size_t r = 0; r < recvs_.size(); ++r) {
    if (recv_peer_[r] != kernels::kNoNodePeer) {
      peer_routes_[recv_peer_[r]].elements_in +=
          static_cast<std::uint64_t>(layouts.recvs[r].element_count());
    }
  }
  for (std::size_t i = 0; i < peer_routes_.size(); ++i) {
    peer_routes_[i].pieces_out = table.pieces_out[i];
    peer_routes_[i].pieces_in = table.pieces_in[i];
    peer_routes_[i].direct_pieces_in = table.direct_pieces_in[i];
    peer_routes_[i].first_direct_piece = table.first_direct_piece[i];
  }
  for (std::size_t m = 0; m < sends_.size(); ++m) sends_[m].pieces = table.pieces_of_send[m];
  for (std::size_t r = 0; r < recvs_.size(); ++r) recvs_[r].pieces = table.pieces_of_recv[r];
  return table;
}

}  // namespace haloflag::halo::detail
