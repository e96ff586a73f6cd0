#include "haloflag/halo/transport.hpp"

#include <stdexcept>
#include <string>

#include "parse_named.hpp"

namespace haloflag::halo {

std::string_view to_string(Transport transport) {
  switch (transport) {
    case Transport::automatic: return "auto";
    case Transport::mpi: return "mpi";
    case Transport::node: return "node";
    case Transport::nccl: return "nccl";
    case Transport::self: return "self";
  }
  return "unknown";
}

std::string_view to_string(NodeMapping mapping) {
  switch (mapping) {
    case NodeMapping::automatic: return "auto";
    case NodeMapping::host: return "host";
  }
  return "unknown";
}

std::string_view to_string(NodePlacement placement) {
  switch (placement) {
    case NodePlacement::by_shape: return "by-shape";
    case NodePlacement::direct: return "direct";
    case NodePlacement::buffered: return "buffered";
  }
  return "unknown";
}

Transport parse_transport(std::string_view name) {
  constexpr Transport kTransports[] = {Transport::automatic, Transport::mpi, Transport::node,
                                       Transport::nccl};
  return detail::parse_named<Transport>(name, kTransports, "transport");
}

NodeMapping parse_node_mapping(std::string_view name) {
  constexpr NodeMapping kMappings[] = {NodeMapping::automatic, NodeMapping::host};
  return detail::parse_named<NodeMapping>(name, kMappings, "node mapping");
}

NodePlacement parse_node_placement(std::string_view name) {
  constexpr NodePlacement kPlacements[] = {NodePlacement::by_shape, NodePlacement::direct,
                                           NodePlacement::buffered};
  return detail::parse_named<NodePlacement>(name, kPlacements, "node placement");
}

std::string describe(const std::vector<PeerTransport>& peers) {
  std::string text;
  for (const Transport transport :
       {Transport::node, Transport::self, Transport::mpi, Transport::nccl}) {
    std::string listed;
    for (const PeerTransport& p : peers) {
      if (p.transport != transport) continue;
      // A path that only repeats the transport's name is left out.
      const bool plain = p.path.empty() || p.path == "mpi" || p.path == "NCCL";
      listed += (listed.empty() ? "" : ", ") + std::to_string(p.peer) +
                (plain && transport != Transport::node ? "" : " (" + p.path + ")");
    }
    if (listed.empty()) continue;
    text += (text.empty() ? "" : "; ") + std::string(to_string(transport)) + ": " + listed;
  }
  return text.empty() ? "no peers" : text;
}

}  // namespace haloflag::halo
