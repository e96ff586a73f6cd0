// The node transport's cut of messages into pieces (halo/src/transports/node/node_piece_table):
// every element of every node message in exactly one piece, pieces no larger than asked (the
// last one of a message shorter when the size does not divide it), receive pieces grouped by
// peer, MPI messages left out.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "haloflag/halo/errors.hpp"
#include "transports/node/node_piece_table.hpp"

namespace {

namespace hh = haloflag::halo;
namespace hk = haloflag::kernels;

// A message of `cells` cells in one box and `variables` variables.
hk::MessageLayout layout_of(int cells, int variables) {
  hk::MessageLayout layout{};
  layout.box_count = 1;
  layout.boxes[0] = {{0, 0, 0}, {cells, 1, 1}};
  layout.set_variables(variables, 8);
  return layout;
}

TEST(NodePieceTable, CoversEveryElementOnceInPiecesOfAtMostTheSize) {
  hh::MessageLayouts layouts;
  layouts.sends = {layout_of(1000, 3), layout_of(3, 1), layout_of(500, 2)};  // 3000, 3, 1000
  layouts.recvs = {layout_of(700, 1), layout_of(1000, 3), layout_of(10, 1)};
  const std::uint32_t mpi = hk::kNoNodePeer;
  // Sends 0 and 2 to node peer 1, send 1 over MPI; receives from peers 1, 0, and MPI.
  const hh::detail::NodePieceTable table = hh::detail::cut_into_pieces(
      layouts, {1, mpi, 1}, {1, 0, mpi}, {}, 2, 256 * 8 + 4);  // 256 elements (bytes not a multiple)
  std::vector<int> covered(3000 + 3 + 1000, 0);
  const std::vector<int> send_base = {0, 3000, 3003};
  for (const hk::NodePiece& piece : table.send_pieces) {
    EXPECT_LE(piece.count, 256u);
    EXPECT_GT(piece.count, 0u);
    EXPECT_EQ(piece.peer, 1u);
    for (std::uint32_t e = piece.first; e < piece.first + piece.count; ++e) {
      ++covered[static_cast<std::size_t>(send_base[piece.message] + static_cast<int>(e))];
    }
  }
  for (std::size_t i = 0; i < covered.size(); ++i) {
    EXPECT_EQ(covered[i], i >= 3000 && i < 3003 ? 0 : 1) << "element " << i;
  }
  EXPECT_EQ(table.pieces_of_send, (std::vector<std::uint32_t>{12, 0, 4}));  // 3000 = 11 x 256 + 184
  EXPECT_EQ(table.pieces_out, (std::vector<std::uint32_t>{0, 16}));
  // Receives grouped by peer: peer 0's (receive 1, 12 pieces) first, then peer 1's (receive 0).
  EXPECT_EQ(table.pieces_in, (std::vector<std::uint32_t>{12, 3}));
  // Nothing through the buffer by its shape: every receive piece may be placed directly.
  EXPECT_EQ(table.direct_pieces_in, table.pieces_in);
  EXPECT_EQ(table.first_direct_piece, (std::vector<std::uint32_t>{0, 12}));
  ASSERT_EQ(table.recv_pieces.size(), 15u);
  EXPECT_EQ(table.recv_pieces[0].message, 1u);
  EXPECT_EQ(table.recv_pieces[12].message, 0u);
  EXPECT_EQ(table.recv_pieces[14].first, 512u);
  EXPECT_EQ(table.recv_pieces[14].count, 700u - 512u);
  EXPECT_EQ(table.pieces_of_recv, (std::vector<std::uint32_t>{3, 12, 0}));
}

// Receives through the buffer by their shape leave the peer's count of directly placed pieces,
// and the first of those is the block that waits for them all.
TEST(NodePieceTable, CountsTheDirectPiecesApartFromThoseThroughTheBuffer) {
  hh::MessageLayouts layouts;
  layouts.recvs = {layout_of(600, 1), layout_of(300, 1), layout_of(100, 1), layout_of(50, 1)};
  // Receives 0 and 1 from peer 0, 2 and 3 from peer 1; 0 and 3 through the buffer.
  const hh::detail::NodePieceTable table = hh::detail::cut_into_pieces(
      layouts, {}, {0, 0, 1, 1}, {true, false, false, true}, 2, 256 * 8);
  EXPECT_EQ(table.pieces_in, (std::vector<std::uint32_t>{5, 2}));  // 3 + 2, 1 + 1
  EXPECT_EQ(table.direct_pieces_in, (std::vector<std::uint32_t>{2, 1}));
  EXPECT_EQ(table.first_direct_piece, (std::vector<std::uint32_t>{3, 5}));
  EXPECT_EQ(table.recv_pieces[3].message, 1u);
  EXPECT_EQ(table.recv_pieces[5].message, 2u);
  // A peer all of whose receives come through the buffer has no first direct piece.
  const hh::detail::NodePieceTable buffered = hh::detail::cut_into_pieces(
      layouts, {}, {0, 0, 1, 1}, {true, true, false, false}, 2, 256 * 8);
  EXPECT_EQ(buffered.direct_pieces_in, (std::vector<std::uint32_t>{0, 2}));
  EXPECT_EQ(buffered.first_direct_piece[0], hk::kNoNodePeer);
}

TEST(NodePieceTable, RefusesAPieceSmallerThanAnElement) {
  hh::MessageLayouts layouts;
  layouts.sends = {layout_of(10, 1)};
  EXPECT_THROW((void)hh::detail::cut_into_pieces(layouts, {0}, {}, {}, 1, 7), hh::ConfigError);
}

}  // namespace
