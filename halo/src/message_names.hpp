// Internal: how errors name one message of a rank: peer, tag, bytes, and the direction when
// the config follows the tag numbering of direction.hpp (configs built from a geometry).
#pragma once

#include <cstddef>
#include <string>

#include "haloflag/halo/exchange_config.hpp"

namespace haloflag::halo::detail {

class MessageNames {
 public:
  MessageNames(const RankMessages& messages, bool tags_are_directions)
      : messages_(&messages), tags_are_directions_(tags_are_directions) {}

  // "send to peer 1 tag 3 (60000 bytes, towards -x+y)"
  std::string send(std::size_t index) const;
  // "receive from peer 1 tag 22 (60000 bytes, from +x-y)"
  std::string recv(std::size_t index) const;

 private:
  std::string describe(const Message& m, bool is_send) const;

  const RankMessages* messages_;
  bool tags_are_directions_;
};

}  // namespace haloflag::halo::detail
