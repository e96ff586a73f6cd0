#include "haloflag/model/message_class.hpp"

namespace haloflag::model {

std::string_view to_string(MessageClass message_class) noexcept {
  switch (message_class) {
    case MessageClass::intra_socket: return "intra_socket";
    case MessageClass::inter_socket: return "inter_socket";
    case MessageClass::inter_node: return "inter_node";
  }
  return "?";
}

std::string_view to_string(Protocol protocol) noexcept {
  return protocol == Protocol::eager ? "eager" : "rendezvous";
}

}  // namespace haloflag::model
