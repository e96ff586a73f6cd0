// Internal: how errors name one message of a rank: peer, tag, bytes, and the direction when
// the config follows the tag numbering of direction.hpp (configs built from a geometry). A piece
// of a message cut for MPI (wire_origin.hpp) is named by the config's tag and
// its place: "send to peer 1 tag 4 piece 2 of 5 (12000 bytes, towards -z)".
#pragma once

#include <cstddef>
#include <string>

#include "haloflag/halo/exchange_config.hpp"
#include <vector>

#include "wire_origin.hpp"

namespace haloflag::halo::detail {

class MessageNames {
 public:
  MessageNames(const RankMessages& messages, bool tags_are_directions)
      : messages_(&messages), tags_are_directions_(tags_are_directions) {}
  // Moved messages (pieces among them) named with their origins, one per send and receive;
  // all three must outlive the names.
  MessageNames(const RankMessages& messages, const std::vector<WireOrigin>& send_origins,
               const std::vector<WireOrigin>& recv_origins, bool tags_are_directions)
      : messages_(&messages),
        send_origins_(&send_origins),
        recv_origins_(&recv_origins),
        tags_are_directions_(tags_are_directions) {}

  // "send to peer 1 tag 3 (60000 bytes, towards -x+y)"
  std::string send(std::size_t index) const;
  // "receive from peer 1 tag 22 (60000 bytes, from +x-y)"
  std::string recv(std::size_t index) const;

 private:
  std::string describe(const Message& m, const WireOrigin* origin, bool is_send) const;

  const RankMessages* messages_;
  const std::vector<WireOrigin>* send_origins_ = nullptr;
  const std::vector<WireOrigin>* recv_origins_ = nullptr;
  bool tags_are_directions_;
};

}  // namespace haloflag::halo::detail
