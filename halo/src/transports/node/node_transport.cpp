#include "transports/node/node_transport.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstring>
#include <map>
#include <set>
#include <utility>

#include "deadline_collectives.hpp"
#include "haloflag/halo/errors.hpp"
#include "haloflag/kernels/kernel_runner.hpp"
#include "haloflag/notify/flag_line.hpp"
#include "transports/node/node_piece_table.hpp"
#include "transports/piece_grid_size.hpp"

namespace haloflag::halo::detail {
namespace {

constexpr std::size_t kLine = notify::kFlagLineBytes;

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

// Arrival words count elements where the pair's GPUs add into each other's device memory
// natively (and on the host backend, whose shared memory takes atomics); elsewhere they hold
// the epoch.
bool counting_pair(const NodeDiscovery& node, int peer, bool region_in_device) {
  if (!node.gpu()) return true;
  return region_in_device && kernels::native_peer_atomics(node.bus_id_of(peer));
}

}  // namespace

NodeTransport::NodeTransport(MPI_Comm comm, const RankMessages& messages,
                             const MessageLayouts& layouts, const kernels::FieldSet& fields,
                             const ExchangeOptions& options, notify::ControlBlock& control,
                             const MessageNames& names)
    : timeout_(options.timeout),
      send_routes_(messages.sends.size()),
      recv_routes_(messages.recvs.size()),
      signals_(messages.sends.size(), messages.recvs.size()),
      plan_(control) {
  try {
    set_up(comm, messages, layouts, fields, options, names);
  } catch (...) {
    // The node's other ranks may be anywhere in the set-up: free nothing they might map.
    memory_.keep_region();
    throw;
  }
}

void NodeTransport::throw_if_unusable() const {
  if (!problems_.empty()) throw ConfigError(problems_);
}

// What set_up() has learnt so far: each step below reads what the steps before it set, so the
// steps run in set_up()'s order (which is also the order of the collective calls on every rank).
struct NodeTransport::SetUp : NodeSetUpInputs {
  explicit SetUp(const NodeSetUpInputs& inputs) : NodeSetUpInputs(inputs) {}

  // exchange_routes: what the node's ranks told this one.
  std::vector<std::vector<RouteEntry>> incoming;
  std::vector<std::vector<PeerEntry>> peer_incoming;
  // route_peers, route_receives, route_sends: the device half's routes.
  std::byte* my_region = nullptr;
  std::vector<kernels::NodePeerRoute> peer_routes;
  std::vector<std::uint32_t> send_peer;
  std::vector<std::uint32_t> recv_peer;
};

// The steps run in the same order on every rank: their collective calls over `comm` and the node
// must match. What cannot be kept goes to problems_ (see the constructor's comment); set_up stops
// after the last collective step where the GPU refuses the shared memory, and before cutting the
// pieces where any problem was found.
void NodeTransport::set_up(MPI_Comm comm, const RankMessages& messages,
                           const MessageLayouts& layouts, const kernels::FieldSet& fields,
                           const ExchangeOptions& options, const MessageNames& names) {
  SetUp s(NodeSetUpInputs{messages, layouts, fields, options, names});
  node_.join(comm, options.backend != notify::Backend::host, timeout_);
  layout_.choose_peers(s, node_, problems_);
  layout_.lay_out_region(s);
  place_region(s);
  // Direct placement: the fields of the peers this rank sends to, mapped here.
  fields_.map_first(fields);
  create_segments(s);
  exchange_routes(s);
  if (!register_segments(s)) return;
  s.my_region = !layout_.node_peers().empty() ? memory_.region_of(node_.node_rank(), memory_.in_device()) : nullptr;
  route_peers(s);
  route_receives(s);
  route_sends(s);
  if (!problems_.empty()) return;
  fields_.lay_out_targets();
  cut_and_upload(s);
  describe_peers(s);
}

// Where the region lives (memory_.place_region), and what follows from it for the lines.
void NodeTransport::place_region(SetUp& s) {
  memory_.place_region(layout_.node_peers(), s.options, layout_.region_bytes());
  layout_.settle_lines(s, node_.gpu() && !memory_.in_device());
}

// The shared segment: this rank's mailbox lines, then its region where it is not on the GPU.
void NodeTransport::create_segments(SetUp& s) {
  memory_.create_segments(NodeSignals::mailbox_bytes(s.messages.recvs.size()),
                          layout_.region_bytes());
}

// Tell each sender of the node where its messages to this rank go, and each node peer where
// its words are: two all-to-alls over the node, routes first.
void NodeTransport::exchange_routes(SetUp& s) {
  std::vector<std::vector<RouteEntry>> outgoing(static_cast<std::size_t>(node_.node_size()));
  for (std::size_t r = 0; r < s.messages.recvs.size(); ++r) {
    const Message& m = s.messages.recvs[r];
    if (!node_.on_node(m.peer)) continue;
    RouteEntry entry;
    entry.tag = m.tag;
    entry.node = layout_.by_node(m.peer) ? 1 : 0;
    entry.bytes = m.bytes;
    entry.mailbox_offset = NodeSignals::mailbox_offset(r);
    if (entry.node) {
      entry.in_device = memory_.in_device() ? 1 : 0;
      entry.data_offset = layout_.data_offset(r);
      entry.layout = s.layouts.recvs[r];
      entry.through_buffer = layout_.through_buffer()[r] ? 1 : 0;
    }
    outgoing[static_cast<std::size_t>(node_.node_rank_of(m.peer))].push_back(entry);
  }
  s.incoming = all_to_all(outgoing, node_.comm(), timeout_, "exchanging routes");
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
  s.peer_incoming = all_to_all(peer_outgoing, node_.comm(), timeout_, "exchanging node words");
}

// Host addresses in the shared segments become device addresses through registrations, where
// a region of the node is in them. Returns false, with the problem kept, when the GPU refuses
// them.
bool NodeTransport::register_segments(SetUp& s) {
  bool host_path_used = node_.gpu() && memory_.host_region_needed();
  for (const auto& entries : s.peer_incoming) {
    for (const PeerEntry& e : entries) {
      host_path_used = host_path_used || (node_.gpu() && !e.in_device);
    }
  }
  return memory_.register_segments(host_path_used, problems_);
}

// The peers of the device half: where this rank's words and each peer's are, as the peer said.
void NodeTransport::route_peers(SetUp& s) {
  s.peer_routes.resize(layout_.node_peers().size());
  for (const auto& [peer, index] : layout_.peer_index()) {
    const int q = node_.node_rank_of(peer);
    const auto& entries = s.peer_incoming[static_cast<std::size_t>(q)];
    if (entries.size() != 1) {
      problems_.push_back("peers disagree on the transport: this rank carries its messages with "
                          "peer " + std::to_string(peer) + " over node, peer " +
                          std::to_string(peer) + " over mpi; give both the same "
                          "ExchangeOptions::transport and HALOFLAG_NODE_SIZE");
      continue;
    }
    kernels::NodePeerRoute& route = s.peer_routes[index];
    std::byte* there = memory_.region_of(q, entries[0].in_device != 0);
    if (there == nullptr) {
      problems_.push_back("peer " + std::to_string(peer) +
                          "'s node memory is not mapped in this rank");
      continue;
    }
    route.arrival_there = reinterpret_cast<std::uint64_t*>(there + entries[0].arrival_offset);
    route.ghosts_free_there =
        reinterpret_cast<std::uint64_t*>(there + entries[0].ghosts_free_offset);
    const std::int64_t arrival = NodeRegionLayout::arrival_line(index);
    const std::int64_t ghosts_free = NodeRegionLayout::ghosts_free_line(index);
    route.arrival_here = reinterpret_cast<const std::uint64_t*>(s.my_region + arrival);
    route.ghosts_free_here = reinterpret_cast<const std::uint64_t*>(s.my_region + ghosts_free);
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
void NodeTransport::route_receives(SetUp& s) {
  s.recv_peer.assign(s.messages.recvs.size(), kernels::kNoNodePeer);
  recv_text_.resize(s.messages.recvs.size());
  for (std::size_t r = 0; r < s.messages.recvs.size(); ++r) {
    const Message& m = s.messages.recvs[r];
    if (node_.on_node(m.peer)) signals_.open_receive(r, memory_.segment(node_.node_rank()));
    if (layout_.data_offset(r) < 0) continue;
    s.recv_peer[r] = layout_.index_of(m.peer);
    recv_routes_[r].data = s.my_region + layout_.data_offset(r);
    recv_routes_[r].peer = s.recv_peer[r];
    recv_routes_[r].through_buffer = layout_.through_buffer()[r] ? 1 : 0;
    recv_text_[r] = s.names.recv(r);
    ++node_recvs_;
  }
}

// This rank's sends, matched by tag with what their receivers said; a mismatch is a problem,
// kept for throw_if_unusable().
void NodeTransport::route_sends(SetUp& s) {
  const RankMessages& messages = s.messages;
  const MessageNames& names = s.names;
  s.send_peer.assign(messages.sends.size(), kernels::kNoNodePeer);
  send_text_.resize(messages.sends.size());
  for (std::size_t m = 0; m < messages.sends.size(); ++m) {
    const Message& send = messages.sends[m];
    if (!node_.on_node(send.peer)) continue;
    const int q = node_.node_rank_of(send.peer);
    const RouteEntry* entry = nullptr;
    for (const RouteEntry& listed : s.incoming[static_cast<std::size_t>(q)]) {
      if (listed.tag == send.tag) entry = &listed;
    }
    if (entry == nullptr) {
      problems_.push_back(names.send(m) + ": peer " + std::to_string(send.peer) +
                          " lists no such receive for the node transport");
      continue;
    }
    const bool by_node = layout_.by_node(send.peer);
    if ((entry->node != 0) != by_node) {
      problems_.push_back("peers disagree on the transport: this rank carries its messages with peer " +
                          std::to_string(send.peer) + " over " +
                          (by_node ? "node" : "mpi") + ", peer " +
                          std::to_string(send.peer) + " over " + (entry->node ? "node" : "mpi") +
                          " (" + names.send(m) + "); give both the same ExchangeOptions::transport "
                          "and HALOFLAG_NODE_SIZE");
      continue;
    }
    if (!entry->node) continue;
    if (entry->layout.element_count() != s.layouts.sends[m].element_count()) {
      problems_.push_back(names.send(m) + ": peer " + std::to_string(send.peer) + " unpacks " +
                          std::to_string(entry->layout.element_count()) + " elements, this rank packs " +
                          std::to_string(s.layouts.sends[m].element_count()));
      continue;
    }
    signals_.open_send(m, memory_.segment(q), entry->mailbox_offset);
    std::byte* there = memory_.region_of(q, entry->in_device != 0);
    s.send_peer[m] = layout_.index_of(send.peer);
    send_routes_[m].target = entry->layout;
    send_routes_[m].target_buffer = there + entry->data_offset;
    send_routes_[m].peer = s.send_peer[m];
    send_routes_[m].through_buffer = entry->through_buffer != 0 ? 1 : 0;
    send_text_[m] = names.send(m);
    ++node_sends_;
  }
}

// Cuts the node messages into pieces, counts them per peer and route, and uploads the device
// half.
void NodeTransport::cut_and_upload(SetUp& s) {
  const ExchangeOptions& options = s.options;
  const MessageLayouts& layouts = s.layouts;
  const NodePieceTable table =
      cut_into_pieces(layouts, s.send_peer, s.recv_peer, layout_.through_buffer(),
                      layout_.node_peers().size(),
                      piece_grid_piece_bytes(layouts, options));
  std::vector<kernels::NodePeerRoute>& peer_routes = s.peer_routes;
  for (std::size_t r = 0; r < recv_routes_.size(); ++r) {
    if (s.recv_peer[r] != kernels::kNoNodePeer) {
      peer_routes[s.recv_peer[r]].elements_in +=
          static_cast<std::uint64_t>(layouts.recvs[r].element_count());
    }
  }
  for (std::size_t i = 0; i < peer_routes.size(); ++i) {
    peer_routes[i].pieces_out = table.pieces_out[i];
    peer_routes[i].pieces_in = table.pieces_in[i];
    peer_routes[i].direct_pieces_in = table.direct_pieces_in[i];
    peer_routes[i].first_direct_piece = table.first_direct_piece[i];
  }
  for (std::size_t m = 0; m < send_routes_.size(); ++m) send_routes_[m].pieces = table.pieces_of_send[m];
  for (std::size_t r = 0; r < recv_routes_.size(); ++r) recv_routes_[r].pieces = table.pieces_of_recv[r];
  if (!any()) return;
  plan_.upload(options.backend, peer_routes, send_routes_, recv_routes_, table, fields_.targets(),
               node_.gpu() && !memory_.in_device());
}

// The messages with `peer` that its receiver takes through its buffer (NodePlacement).
void NodeTransport::count_through_buffer(const SetUp& s, int peer, PeerTransport& described) const {
  for (std::size_t m = 0; m < send_routes_.size(); ++m) {
    if (s.messages.sends[m].peer == peer && send_routes_[m].through_buffer != 0) {
      ++described.sends_through_buffer;
    }
  }
  for (std::size_t r = 0; r < recv_routes_.size(); ++r) {
    if (s.messages.recvs[r].peer == peer && recv_routes_[r].through_buffer != 0) {
      ++described.recvs_through_buffer;
    }
  }
}

// peers(): each peer's transport and, for the node ones, the path its messages take and why.
void NodeTransport::describe_peers(SetUp& s) {
  const NodeMemorySharing::DeviceSharing& sharing = memory_.device_sharing();
  for (int peer : layout_.peers()) {
    // The rank itself is described by the transport that carries it when that is not MPI.
    if (peer == node_.rank() && s.options.transport != Transport::mpi) continue;
    const bool by_node = layout_.by_node(peer);
    PeerTransport described{peer, by_node ? Transport::node : Transport::mpi, "mpi"};
    if (by_node) {
      if (!node_.gpu()) {
        described.path = "shared memory";
      } else if (const auto why = sharing.refused.find(peer); why != sharing.refused.end()) {
        described.path = "pinned host: " + why->second;
      } else {
        described.path = memory_.in_device() ? "device (IPC)" : "pinned host: a node peer cannot map this rank's region";
      }
      if (!sharing.export_failure.empty()) {
        described.path += "; this rank's handle: " + sharing.export_failure;
      }
      count_through_buffer(s, peer, described);
      if (layout_.takes_lines(peer)) described.path += ", takes its messages in lines";
      const bool sent_to = layout_.send_peers().contains(peer);
      if (sent_to && s.peer_routes[layout_.index_of(peer)].lines_out != 0) {
        described.path += ", sends it lines";
      } else if (sent_to) {
        const auto why = fields_.refused().find(peer);
        described.path += why == fields_.refused().end() ? ", pieces into its ghost cells"
                                                         : ", pieces into its buffer (" + why->second + ")";
        if (why == fields_.refused().end() && described.sends_through_buffer > 0) {
          described.path += " but for " + std::to_string(described.sends_through_buffer) +
                            " messages through its buffer (placement " +
                            std::string(to_string(s.options.advanced.node_placement)) + ")";
        }
      }
    }
    peers_.push_back(described);
  }
}

void NodeTransport::map_fields(std::uint32_t slot, const kernels::FieldSet& fields) {
  fields_.map_fields(slot, fields, any() ? &plan_ : nullptr);
}

std::string NodeTransport::pending(std::uint64_t epoch) const {
  std::string text;
  const auto read_word = [&](std::int64_t offset) { return memory_.read_word(offset); };
  const std::vector<int>& node_peers = layout_.node_peers();
  for (std::size_t i = 0; i < node_peers.size() && i < peer_lines_.size(); ++i) {
    const int peer = node_peers[i];
    const std::uint64_t arrival = read_word(peer_lines_[i]);
    const std::uint64_t free = read_word(peer_lines_[i] + static_cast<std::int64_t>(kLine));
    const kernels::NodePeerRoute& route = plan_.peers()[i];
    const auto out = std::uint64_t{route.pieces_out};
    if (route.pieces_in > 0 && route.lines_in != 0) {
      text += "\n  node_arrival[" + std::to_string(i) + "]: peer " + std::to_string(peer) +
              " sends in lines, whose flagged words its receiving threads wait for (a failure "
              "names the flag last seen):";
      for (std::size_t r = 0; r < recv_routes_.size(); ++r) {
        if (recv_routes_[r].peer == i) text += "\n    " + recv_text_[r];
      }
    } else if (route.pieces_in > 0 && arrival < kernels::arrival_target(route, epoch)) {
      text += "\n  node_arrival[" + std::to_string(i) + "] = " + std::to_string(arrival) +
              ", waiting for " + std::to_string(kernels::arrival_target(route, epoch)) +
              (route.counts_in != 0 ? " elements" : "") + ": peer " + std::to_string(peer) +
              "'s pieces of exchange " + std::to_string(epoch) + " have not all landed:";
      for (std::size_t r = 0; r < recv_routes_.size(); ++r) {
        if (recv_routes_[r].peer == i) text += "\n    " + recv_text_[r];
      }
    }
    if (out > 0 && !kernels::lines_free_from_start(route, epoch) &&
        (free >> kernels::kGhostsFreeSlotBits) < epoch) {
      text += "\n  node_ghosts_free[" + std::to_string(i) + "] = " +
              std::to_string(free >> kernels::kGhostsFreeSlotBits) + ", waiting for " +
              std::to_string(epoch) + ": peer " + std::to_string(peer) +
              (route.lines_out != 0 ? " has not unpacked exchange " + std::to_string(epoch - 2) +
                                          " from the same set of lines"
                                    : std::string(" has not started the exchange")) +
              ", so these are not sent:";
      for (std::size_t m = 0; m < send_routes_.size(); ++m) {
        if (send_routes_[m].peer == i) text += "\n    " + send_text_[m];
      }
    }
  }
  return text;
}

NodeTransport::~NodeTransport() {
  memory_.close_mappings();
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized || node_.comm() == MPI_COMM_NULL) {
    memory_.keep_region();  // nobody can be asked: never free what a peer may map
    return;
  }
  try {
    barrier_with_deadline(node_.comm(), timeout_, "the barrier before freeing node memory");
  } catch (const std::exception& error) {
    // A peer that does not answer may still map this rank's device memory: keep it.
    std::fprintf(stderr, "%s; this rank's node memory is left allocated\n", error.what());
    memory_.keep_region();
    return;
  }
  memory_.free_region();
  node_.free_comm();
}

}  // namespace haloflag::halo::detail
