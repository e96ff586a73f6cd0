// Internal: where one message the exchange moves comes from (the mpi transport cuts long
// messages into pieces): the config's message, its tag, and its place among the pieces. Names,
// handshakes and requests read it.
#pragma once

#include <cstddef>
#include <cstdint>

namespace haloflag::halo::detail {

struct WireOrigin {
  std::size_t message = 0;  // index in the config's sends or recvs
  int tag = 0;              // the config's tag
  int piece = 0;
  int pieces = 1;           // 1: the message travels whole
  std::int64_t first_unit = 0;  // the piece's first slab (MessageCut)
  std::int64_t units = 0;
};

}  // namespace haloflag::halo::detail
