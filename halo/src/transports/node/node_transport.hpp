// Internal: the host half of the node transport (docs/design.md, "The node transport"). At
// set-up it sorts the peers into node and MPI ones, agrees on that with each node peer, maps the
// memory the node's GPUs write into, cuts the node messages into pieces and uploads the device
// half (kernels::NodePlan) that the node grid runs on:
//   - each rank's region holds, per node peer, the peer's arrival word and ghosts_free word,
//     then a buffer per node receive. The region is device memory shared through an IPC handle
//     (GPU backends), or the rank's segment of host memory shared by the node's processes,
//     registered as pinned (where IPC is refused, or when forced), or that segment itself on the
//     host backend;
//   - each rank's first FieldSet, and each one given to map_fields, is exported too (GPU
//     backends), so that its senders place their pieces straight into its ghost cells (direct
//     placement).
// A rank's messages to itself are never this transport's: the self transport carries them
// unless every message goes over MPI. For the bulk strategies, whose CPU sequences the
// kernels, the segments also hold a CPU-to-CPU mailbox per node receive (arrived, unpacked).
// NodeTransport composes the parts that do this, one concept each (node_discovery,
// node_region_layout, node_memory_sharing, node_field_mapping, node_routes, node_signals,
// node_device_plan), and runs their set-up steps in one fixed order.
#pragma once

#include <mpi.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "haloflag/halo/exchange_config.hpp"
#include "haloflag/halo/exchange_options.hpp"
#include "haloflag/halo/message_layouts.hpp"
#include "haloflag/halo/transport.hpp"
#include "haloflag/kernels/field_set.hpp"
#include "haloflag/kernels/transports/node/node_route.hpp"
#include "haloflag/notify/control_block.hpp"
#include "message_names.hpp"
#include "transports/node/node_device_plan.hpp"
#include "transports/node/node_discovery.hpp"
#include "transports/node/node_field_mapping.hpp"
#include "transports/node/node_memory_sharing.hpp"
#include "transports/node/node_region_layout.hpp"
#include "transports/node/node_routes.hpp"
#include "transports/node/node_set_up_inputs.hpp"
#include "transports/node/node_signals.hpp"

namespace haloflag::halo::detail {

class NodeTransport {
 public:
  // Collective over `comm` (every rank calls it, also with Transport::mpi, so that peers can
  // check they agree). A choice that cannot be kept (a node peer off the node, peers that chose
  // differently for each other, host memory the GPU cannot register) is kept for
  // throw_if_unusable(), so that every rank has run every collective step and holds a transport
  // to tear down alike. A failed MPI call throws at once.
  NodeTransport(MPI_Comm comm, const RankMessages& messages, const MessageLayouts& layouts,
                const kernels::FieldSet& fields, const ExchangeOptions& options,
                notify::ControlBlock& control, const MessageNames& names);
  // Throws ConfigError listing every problem the set-up found.
  void throw_if_unusable() const;
  // Closes this rank's mappings of its peers' memory, waits (at most the timeout) until every
  // rank of the node has closed its own, then frees this rank's memory. When a peer does not
  // answer in time the memory is left allocated: it may still be mapped by that peer.
  ~NodeTransport();
  NodeTransport(const NodeTransport&) = delete;
  NodeTransport& operator=(const NodeTransport&) = delete;

  bool node_send(std::size_t m) const { return routes_.node_send(m); }
  bool node_recv(std::size_t r) const { return routes_.node_recv(r); }
  bool any() const { return routes_.any(); }
  // Whether some node peer sends or takes this rank's messages in lines.
  bool any_lines() const { return routes_.any_lines(); }

  // The device half's route table, in device-readable memory; null when no peer is on the node.
  const kernels::NodePlan* route_table() const { return plan_.route_table(); }
  // Its pieces per epoch, the node's share of the piece grid's work.
  std::uint32_t send_pieces() const { return plan_.send_pieces(); }
  std::uint32_t recv_pieces() const { return plan_.recv_pieces(); }

  const std::vector<PeerTransport>& peers() const { return peers_; }
  // The rank of node peer `index` of the device half (the index of a node word in a failure
  // record); -1 when there is none.
  int peer_rank(std::size_t index) const {
    return index < layout_.node_peers().size() ? layout_.node_peers()[index] : -1;
  }
  // Ranks of this rank's shared-memory node bound to its GPU, itself included (GPU backends).
  int gpu_sharers() const { return node_.gpu_sharers(); }

  // Collective over the node (every rank of the Exchange, in the same order): exports this
  // rank's FieldSet of `slot` (1 .. kMaxFieldSets - 1; slot 0 is the set-up's) and maps those of
  // the peers it sends to, so that their senders place pieces of epochs announcing `slot`
  // straight into the ghost cells. A mapping that fails leaves that pair buffered. No kernel
  // may run meanwhile: it rewrites the device half's peers.
  void map_fields(std::uint32_t slot, const kernels::FieldSet& fields);

  // What the node messages of `epoch` still wait for, for a deadline error: per peer, whether
  // its arrival has come, with the receives (tags, bytes) it carries, and whether this rank's
  // sends to it are out (the peer's ghosts_free, this rank's count of pieces).
  std::string pending(std::uint64_t epoch) const;

  // The bulk strategies' mailbox, read and written by CPUs (NodeSignals). Epochs only grow.
  void announce_packed(std::size_t m, std::uint64_t epoch) {  // to the receiver of send m
    signals_.announce_packed(m, epoch);
  }
  bool receiver_unpacked(std::size_t m, std::uint64_t epoch) const {
    return signals_.receiver_unpacked(m, epoch);
  }
  bool arrived(std::size_t r, std::uint64_t epoch) const { return signals_.arrived(r, epoch); }
  void announce_unpacked(std::size_t r, std::uint64_t epoch) {  // to the sender of receive r
    signals_.announce_unpacked(r, epoch);
  }

 private:
  // Runs the parts' set-up steps in one fixed order, the same on every rank: their collective
  // calls over `comm` and the node must match.
  void set_up(MPI_Comm comm, const NodeSetUpInputs& in);

  // The parts: the set-up steps of each read what those declared above it learnt.
  std::chrono::nanoseconds timeout_;
  NodeDiscovery node_;          // who is on this rank's node
  NodeRegionLayout layout_;     // the node peers, and this rank's region for them
  NodeMemorySharing memory_;    // the regions, fields and segments shared over the node
  NodeFieldMapping fields_;     // direct placement's FieldSets
  NodeSignals signals_;         // the bulk strategies' mailboxes
  NodeRoutes routes_;           // what the node's ranks told each other; the routes and pieces
  NodeDevicePlan plan_;         // the device half and the memory it points into
  std::vector<PeerTransport> peers_;
  std::vector<std::string> problems_;
};

}  // namespace haloflag::halo::detail
