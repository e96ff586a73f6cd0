#include "message_names.hpp"

#include "haloflag/halo/direction.hpp"

namespace haloflag::halo::detail {

std::string MessageNames::send(std::size_t index) const {
  return describe(messages_->sends.at(index),
                  send_origins_ != nullptr ? &send_origins_->at(index) : nullptr, true);
}

std::string MessageNames::recv(std::size_t index) const {
  return describe(messages_->recvs.at(index),
                  recv_origins_ != nullptr ? &recv_origins_->at(index) : nullptr, false);
}

std::string MessageNames::describe(const Message& m, const WireOrigin* origin,
                                   bool is_send) const {
  const int tag = origin != nullptr ? origin->tag : m.tag;
  std::string text = is_send ? "send to peer " : "receive from peer ";
  text += std::to_string(m.peer) + " tag " + std::to_string(tag);
  if (origin != nullptr && origin->pieces > 1) {
    text += " piece " + std::to_string(origin->piece + 1) + " of " + std::to_string(origin->pieces);
  }
  text += " (" + std::to_string(m.bytes) + " bytes";
  if (tags_are_directions_ && tag >= 0 && tag < kDirectionCount) {
    // A send's tag is its direction; a receive's tag is the direction the sender sent towards,
    // so the sender sits at the opposite side.
    const Direction sent_towards = direction_from_index(tag);
    text += is_send ? ", towards " + direction_name(sent_towards)
                    : ", from " + direction_name(opposite(sent_towards));
  }
  return text + ")";
}

}  // namespace haloflag::halo::detail
