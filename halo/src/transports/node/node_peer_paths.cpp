#include "transports/node/node_peer_paths.hpp"

#include <string>

namespace haloflag::halo::detail {
namespace {

// The messages with `peer` that its receiver takes through its buffer (NodePlacement).
void count_through_buffer(const NodeSetUpInputs& in, const NodeRoutes& routes, int peer,
                          PeerTransport& described) {
  for (std::size_t m = 0; m < routes.sends().size(); ++m) {
    if (in.messages.sends[m].peer == peer && routes.sends()[m].through_buffer != 0) {
      ++described.sends_through_buffer;
    }
  }
  for (std::size_t r = 0; r < routes.recvs().size(); ++r) {
    if (in.messages.recvs[r].peer == peer && routes.recvs()[r].through_buffer != 0) {
      ++described.recvs_through_buffer;
    }
  }
}

}  // namespace

std::vector<PeerTransport> describe_node_peers(const NodeSetUpInputs& in,
                                               const NodeDiscovery& node,
                                               const NodeRegionLayout& layout,
                                               const NodeMemorySharing& memory,
                                               const NodeFieldMapping& fields,
                                               const NodeRoutes& routes) {
  const NodeMemorySharing::DeviceSharing& sharing = memory.device_sharing();
  std::vector<PeerTransport> peers;
  for (int peer : layout.peers()) {
    // The rank itself is described by the transport that carries it when that is not MPI.
    if (peer == node.rank() && in.options.transport != Transport::mpi) continue;
    const bool by_node = layout.by_node(peer);
    PeerTransport described{peer, by_node ? Transport::node : Transport::mpi, "mpi"};
    if (by_node) {
      if (!node.gpu()) {
        described.path = "shared memory";
      } else if (const auto why = sharing.refused.find(peer); why != sharing.refused.end()) {
        described.path = "pinned host: " + why->second;
      } else {
        described.path = memory.in_device()
                             ? "device (IPC)"
                             : "pinned host: a node peer cannot map this rank's region";
      }
      if (!sharing.export_failure.empty()) {
        described.path += "; this rank's handle: " + sharing.export_failure;
      }
      count_through_buffer(in, routes, peer, described);
      if (layout.takes_lines(peer)) described.path += ", takes its messages in lines";
      const bool sent_to = layout.send_peers().contains(peer);
      if (sent_to && routes.peer_routes()[layout.index_of(peer)].lines_out != 0) {
        described.path += ", sends it lines";
      } else if (sent_to) {
        const auto why = fields.refused().find(peer);
        described.path += why == fields.refused().end()
                              ? ", pieces into its ghost cells"
                              : ", pieces into its buffer (" + why->second + ")";
        if (why == fields.refused().end() && described.sends_through_buffer > 0) {
          described.path += " but for " + std::to_string(described.sends_through_buffer) +
                            " messages through its buffer (placement " +
                            std::string(to_string(in.options.advanced.node_placement)) + ")";
        }
      }
    }
    peers.push_back(described);
  }
  return peers;
}

}  // namespace haloflag::halo::detail
