#include "haloflag/model/transport.hpp"

#include <stdexcept>
#include <string>

#include "haloflag/model/errors.hpp"

namespace haloflag::model {

std::string_view to_string(TransportChoice transport) noexcept {
  switch (transport) {
    case TransportChoice::mpi: return "mpi";
    case TransportChoice::node: return "node";
    case TransportChoice::automatic: return "auto";
  }
  return "?";
}

std::string_view to_string(MessagePath path) noexcept {
  return path == MessagePath::mpi ? "mpi" : "node";
}

TransportChoice parse_transport_choice(std::string_view name) {
  for (const TransportChoice choice :
       {TransportChoice::mpi, TransportChoice::node, TransportChoice::automatic}) {
    if (to_string(choice) == name) return choice;
  }
  throw std::invalid_argument("unknown transport \"" + std::string(name) +
                              "\" (valid: mpi, node, auto)");
}

bool node_transport_applies(TransportChoice transport, bool have_node_terms) {
  if (transport == TransportChoice::node && !have_node_terms) {
    throw ModelError("machine parameters: node_transport: missing (transport node needs the "
                     "node transport's terms)");
  }
  return transport != TransportChoice::mpi && have_node_terms;
}

}  // namespace haloflag::model
