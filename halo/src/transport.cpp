#include "haloflag/halo/transport.hpp"

#include <stdexcept>
#include <string>

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
  for (Transport t : {Transport::automatic, Transport::mpi, Transport::node}) {
    if (to_string(t) == name) return t;
  }
  throw std::invalid_argument("unknown transport '" + std::string(name) +
                              "' (valid: auto, mpi, node)");
}

NodeMapping parse_node_mapping(std::string_view name) {
  for (NodeMapping m : {NodeMapping::automatic, NodeMapping::host}) {
    if (to_string(m) == name) return m;
  }
  throw std::invalid_argument("unknown node mapping '" + std::string(name) +
                              "' (valid: auto, host)");
}

std::string describe(const std::vector<PeerTransport>& peers) {
  std::string node;
  std::string mpi;
  for (const PeerTransport& p : peers) {
    if (p.transport == Transport::node) {
      node += (node.empty() ? "" : ", ") + std::to_string(p.peer) + " (" + p.path + ")";
    } else {
      mpi += (mpi.empty() ? "" : ", ") + std::to_string(p.peer);
    }
  }
  std::string text;
  if (!node.empty()) text = "node: " + node;
  if (!mpi.empty()) text += (text.empty() ? "" : "; ") + std::string("mpi: ") + mpi;
  return text.empty() ? "no peers" : text;
}

}  // namespace haloflag::halo
