// Internal: how the node transport cuts its messages into pieces (docs/design.md, "The node
// transport"): every node send and receive into pieces of at most a given number of bytes, in
// message order, the receive pieces grouped by peer. A plain function of the layouts, so that
// both sides of a message cut it alike and tests check it without MPI.
#pragma once

#include <cstdint>
#include <vector>

#include "haloflag/halo/message_layouts.hpp"
#include "haloflag/kernels/transports/node/node_route.hpp"

namespace haloflag::halo::detail {

struct NodePieceTable {
  std::vector<kernels::NodePiece> send_pieces;  // in message order
  std::vector<kernels::NodePiece> recv_pieces;  // grouped by peer, message order within
  std::vector<std::uint32_t> pieces_of_send;    // [sends]; 0 for an MPI send
  std::vector<std::uint32_t> pieces_of_recv;    // [recvs]
  std::vector<std::uint32_t> pieces_out;        // [peers]: send pieces to the peer
  std::vector<std::uint32_t> pieces_in;         // [peers]: receive pieces from it
  // [peers]: the receive pieces of messages the peer may place directly (not through_buffer),
  // and the first of them in recv_pieces (kNoNodePeer where there is none).
  std::vector<std::uint32_t> direct_pieces_in;
  std::vector<std::uint32_t> first_direct_piece;
};

// send_peer[m] and recv_peer[r]: the node peer index of each message, kNoNodePeer over MPI;
// through_buffer[r]: receive r comes through this rank's buffer even in an epoch placed
// directly. Throws ConfigError when piece_bytes is smaller than one element.
NodePieceTable cut_into_pieces(const MessageLayouts& layouts,
                               const std::vector<std::uint32_t>& send_peer,
                               const std::vector<std::uint32_t>& recv_peer,
                               const std::vector<bool>& through_buffer,
                               std::size_t peer_count, std::int64_t piece_bytes);

}  // namespace haloflag::halo::detail
