#include "transports/node/node_piece_table.hpp"

#include <algorithm>
#include <string>

#include "haloflag/halo/errors.hpp"

namespace haloflag::halo::detail {
namespace {

// Appends the pieces of one message; returns how many.
std::uint32_t append_pieces(std::vector<kernels::NodePiece>& pieces, std::uint32_t message,
                            std::uint32_t peer, std::int64_t elements,
                            std::int64_t piece_elements) {
  std::uint32_t count = 0;
  for (std::int64_t first = 0; first < elements; first += piece_elements) {
    const std::int64_t length = std::min(piece_elements, elements - first);
    pieces.push_back({message, static_cast<std::uint32_t>(first),
                      static_cast<std::uint32_t>(length), peer});
    ++count;
  }
  return count;
}

}  // namespace

NodePieceTable cut_into_pieces(const MessageLayouts& layouts,
                               const std::vector<std::uint32_t>& send_peer,
                               const std::vector<std::uint32_t>& recv_peer,
                               const std::vector<bool>& through_buffer,
                               std::size_t peer_count, std::int64_t piece_bytes) {
  // Pieces count elements; a piece of mixed types holds at most piece_bytes of the largest.
  const std::int64_t element_bytes = std::max(1, largest_element_bytes(layouts));
  if (piece_bytes < element_bytes) {
    throw ConfigError("node transport: a piece of " + std::to_string(piece_bytes) +
                      " bytes holds no element (at least " + std::to_string(element_bytes) +
                      ")");
  }
  const std::int64_t piece_elements = piece_bytes / element_bytes;
  NodePieceTable table;
  table.pieces_of_send.assign(layouts.sends.size(), 0);
  table.pieces_of_recv.assign(layouts.recvs.size(), 0);
  table.pieces_out.assign(peer_count, 0);
  table.pieces_in.assign(peer_count, 0);
  table.direct_pieces_in.assign(peer_count, 0);
  table.first_direct_piece.assign(peer_count, kernels::kNoNodePeer);
  for (std::size_t m = 0; m < layouts.sends.size(); ++m) {
    if (send_peer[m] == kernels::kNoNodePeer) continue;
    const std::uint32_t count =
        append_pieces(table.send_pieces, static_cast<std::uint32_t>(m), send_peer[m],
                      layouts.sends[m].element_count(), piece_elements);
    table.pieces_of_send[m] = count;
    table.pieces_out[send_peer[m]] += count;
  }
  for (std::uint32_t peer = 0; peer < peer_count; ++peer) {
    for (std::size_t r = 0; r < layouts.recvs.size(); ++r) {
      if (recv_peer[r] != peer) continue;
      const auto first = static_cast<std::uint32_t>(table.recv_pieces.size());
      const std::uint32_t count =
          append_pieces(table.recv_pieces, static_cast<std::uint32_t>(r), peer,
                        layouts.recvs[r].element_count(), piece_elements);
      table.pieces_of_recv[r] = count;
      table.pieces_in[peer] += count;
      if (r < through_buffer.size() && through_buffer[r]) continue;
      if (table.direct_pieces_in[peer] == 0) table.first_direct_piece[peer] = first;
      table.direct_pieces_in[peer] += count;
    }
  }
  return table;
}

}  // namespace haloflag::halo::detail
