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

Transport parse_transport(std::string_view name) {
  constexpr Transport kTransports[] = {Transport::automatic, Transport::mpi, Transport::node};
  return detail::parse_named<Transport>(name, kTransports, "transport");
}

NodeMapping parse_node_mapping(std::string_view name) {
  constexpr NodeMapping kMappings[] = {NodeMapping::automatic, NodeMapping::host};
  return detail::parse_named<NodeMapping>(name, kMappings, "node mapping");
}

std::string describe(const std::vector<PeerTransport>& peers) {
  std::string node;
  std::string mpi;
  for (const PeerTransport& p : peers) {
    if (p.transport == Transport::node) {
      node += (node.empty() ? "" : ", ") + std::to_string(p.peer) + " (" + p.path + ")";
    } else {
      mpi += (mpi.empty() ? "" : ", ") + std::to_string(p.peer) +
             (p.path.empty() || p.path == "mpi" ? "" : " (" + p.path + ")");
    }
  }
  std::string text;
  if (!node.empty()) text = "node: " + node;
  if (!mpi.empty()) text += (text.empty() ? "" : "; ") + std::string("mpi: ") + mpi;
  return text.empty() ? "no peers" : text;
}

}  // namespace haloflag::halo
