// The node piece size of a stencil example's resident kernel: plain C++, so that the rule is
// tested on a machine without a GPU. Each block of the kernel's grid moves its share of the
// exchange's send pieces before it starts its interior, one piece after another, and each piece
// ends with a system-scope release that waits for the piece's stores across the link; a block
// with two pieces holds the whole grid back by one such wait (examples/common/README.md, "The
// resident kernel's pieces").
#pragma once

#include <cstdint>
#include <vector>

namespace haloflag::examples {

// The pieces of `piece_bytes` that messages of `message_bytes` are cut into.
inline std::int64_t pieces_of(const std::vector<std::int64_t>& message_bytes,
                              std::int64_t piece_bytes) {
  std::int64_t pieces = 0;
  for (const std::int64_t bytes : message_bytes) pieces += (bytes + piece_bytes - 1) / piece_bytes;
  return pieces;
}

// `default_bytes`, unless its pieces of this rank's messages would take a grid of `blocks` more
// than one round: then twice that. Larger pieces move fewer at once, which costs where one round
// of the default already holds them all.
inline int resident_piece_bytes(const std::vector<std::int64_t>& message_bytes,
                                std::int64_t blocks, int default_bytes) {
  return pieces_of(message_bytes, default_bytes) > blocks ? 2 * default_bytes : default_bytes;
}

// The same for a kernel whose sends update the cells they send (resident_boundary_order.hpp):
// each sending block updates its piece's cells before it moves them, one after another, so
// pieces of one element per thread (`smallest_bytes`) shorten that chain. They are taken while
// they fill at most three quarters of a round of the grid: beyond, the blocks that send end
// their share of the interior late.
inline int updating_piece_bytes(const std::vector<std::int64_t>& message_bytes,
                                std::int64_t blocks, int default_bytes, int smallest_bytes) {
  if (smallest_bytes > 0 && smallest_bytes < default_bytes &&
      4 * pieces_of(message_bytes, smallest_bytes) <= 3 * blocks) {
    return smallest_bytes;
  }
  return resident_piece_bytes(message_bytes, blocks, default_bytes);
}

}  // namespace haloflag::examples
