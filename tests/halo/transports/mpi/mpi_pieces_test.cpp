// How messages are cut into pieces for MPI (haloflag/halo/mpi_pieces.hpp): slabs along the
// box's outermost axis longer than one cell, as many as fit the piece size, at most
// kMaxPiecesPerMessage pieces; messages that fit one piece, or have several boxes, stay whole.
#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "haloflag/halo/errors.hpp"
#include "haloflag/halo/mpi_pieces.hpp"
#include "transports/mpi/message_pieces.hpp"

namespace {

using namespace haloflag::halo;

const MessageData kThreeDoubles{3, 8, {}};

Message face(std::int64_t x, std::int64_t y, std::int64_t z) {
  Message m;
  m.peer = 1;
  m.tag = 4;
  m.boxes = {{{1, 1, 1}, {x, y, z}}};
  m.bytes = x * y * z * kThreeDoubles.vars * kThreeDoubles.element_bytes;
  return m;
}

std::int64_t sum_of_pieces(const MessageCut& cut) {
  std::int64_t bytes = 0;
  for (int k = 0; k < cut.pieces; ++k) bytes += cut.piece_bytes(k);
  return bytes;
}

// The cube-200 face of the 2-rank config: 50 x 50 x 1 cells, 60000 bytes; its rows (y) are the
// outermost axis longer than a cell, 1200 bytes each. 16384 bytes hold 13 rows: 4 pieces, the
// last of 11 rows, since 50 is not a multiple of 13.
TEST(MpiPieces, AFaceIsCutIntoRowsAlongItsOutermostLongAxis) {
  const MessageCut cut = cut_message(face(50, 50, 1), kThreeDoubles, 16384);
  EXPECT_EQ(cut.axis, 1);
  EXPECT_EQ(cut.unit_bytes, 1200);
  EXPECT_EQ(cut.units, 50);
  EXPECT_EQ(cut.units_per_piece, 13);
  ASSERT_EQ(cut.pieces, 4);
  EXPECT_EQ(cut.piece_units(0), 13);
  EXPECT_EQ(cut.piece_units(3), 11);
  EXPECT_EQ(cut.piece_bytes(3), 11 * 1200);
  EXPECT_EQ(sum_of_pieces(cut), 60000);
}

TEST(MpiPieces, AnXFaceIsCutIntoPlanes) {
  const MessageCut cut = cut_message(face(1, 50, 50), kThreeDoubles, 16384);
  EXPECT_EQ(cut.axis, 2);
  EXPECT_EQ(cut.unit_bytes, 1200);
  EXPECT_EQ(cut.pieces, 4);
}

// A row of cells is cut into runs of cells.
TEST(MpiPieces, ARowIsCutIntoCells) {
  const MessageCut cut = cut_message(face(50, 1, 1), kThreeDoubles, 240);
  EXPECT_EQ(cut.axis, 0);
  EXPECT_EQ(cut.unit_bytes, 24);
  EXPECT_EQ(cut.units_per_piece, 10);
  EXPECT_EQ(cut.pieces, 5);
}

TEST(MpiPieces, MessagesThatFitOnePieceOrAreOffStayWhole) {
  EXPECT_EQ(cut_message(face(50, 50, 1), kThreeDoubles, 60000).pieces, 1);
  EXPECT_EQ(cut_message(face(50, 50, 1), kThreeDoubles, 100000).pieces, 1);
  EXPECT_EQ(cut_message(face(50, 50, 1), kThreeDoubles, 0).pieces, 1);
}

// A slab larger than the piece size is a piece of its own.
TEST(MpiPieces, ASlabLargerThanThePieceIsAPieceOfItsOwn) {
  const MessageCut cut = cut_message(face(50, 50, 1), kThreeDoubles, 1000);
  EXPECT_EQ(cut.units_per_piece, 1);
  EXPECT_EQ(cut.pieces, 50);
  EXPECT_EQ(sum_of_pieces(cut), 60000);
}

// The cube-800 face (200 x 200 rows of 4800 bytes) in 1-byte pieces would be 200 pieces: the
// cut takes larger ones so that at most kMaxPiecesPerMessage go, and the tags stay apart.
TEST(MpiPieces, NoMessageHasMoreThanTheMaximumNumberOfPieces) {
  const MessageCut cut = cut_message(face(200, 200, 1), kThreeDoubles, 1);
  EXPECT_LE(cut.pieces, kMaxPiecesPerMessage);
  EXPECT_EQ(cut.units_per_piece, 4);
  EXPECT_EQ(cut.pieces, 50);
  EXPECT_EQ(sum_of_pieces(cut), 200 * 200 * 24);
}

TEST(MpiPieces, MessagesOfSeveralBoxesStayWhole) {
  Message m = face(50, 50, 1);
  m.boxes.push_back({{1, 1, 2}, {50, 50, 1}});
  m.bytes *= 2;
  EXPECT_EQ(cut_message(m, kThreeDoubles, 16384).pieces, 1);
}

TEST(MpiPieces, TransfersParseAndResolve) {
  EXPECT_EQ(parse_piece_transfer("auto"), PieceTransfer::automatic);
  EXPECT_EQ(parse_piece_transfer("partitioned"), PieceTransfer::partitioned);
  EXPECT_EQ(parse_piece_transfer("p2p"), PieceTransfer::point_to_point);
  try {
    parse_piece_transfer("rdma");
    FAIL() << "an unknown transfer was accepted";
  } catch (const std::invalid_argument& error) {
    EXPECT_NE(std::string(error.what()).find("auto, partitioned, p2p"), std::string::npos)
        << error.what();
  }
  EXPECT_EQ(resolve_piece_transfer(PieceTransfer::point_to_point), PieceTransfer::point_to_point);
  if (partitioned_communication_available()) {
    EXPECT_EQ(resolve_piece_transfer(PieceTransfer::automatic), PieceTransfer::partitioned);
  } else {
    EXPECT_EQ(resolve_piece_transfer(PieceTransfer::automatic), PieceTransfer::point_to_point);
    EXPECT_THROW(resolve_piece_transfer(PieceTransfer::partitioned), ConfigError);
  }
}

// What moves, and the blocks the stream kernels give it: the pieces take the faces' places, in
// order, with their own tags and boxes that tile the face; every message a block, long ones
// their team.
TEST(MpiPieces, PiecesTileTheirMessageAndCountTheirBlocks) {
  RankMessages messages;
  messages.field_extent = Index3{52, 52, 3};
  messages.sends = {face(50, 50, 1), face(50, 1, 1)};
  messages.sends[1].tag = 5;
  messages.recvs = messages.sends;
  const detail::PiecedMessages pieced =
      detail::cut_into_pieces(messages, kThreeDoubles, 16384, {1}, 2, 32767);
  ASSERT_EQ(pieced.messages.sends.size(), 5u);  // 4 pieces of the face, the row whole
  std::int64_t next_row = 1;
  for (int k = 0; k < 4; ++k) {
    const Message& piece = pieced.messages.sends[static_cast<std::size_t>(k)];
    EXPECT_EQ(piece.tag, 4);  // the config's tag; the wire tag is its own
    EXPECT_EQ(pieced.wire.sends[static_cast<std::size_t>(k)].tag, detail::wire_tag(4, k));
    EXPECT_EQ(pieced.sends[static_cast<std::size_t>(k)].piece, k);
    EXPECT_EQ(piece.boxes.front().begin[1], next_row);
    next_row += piece.boxes.front().extent[1];
  }
  EXPECT_EQ(next_row, 51);
  EXPECT_EQ(pieced.wire.sends[4].tag, detail::wire_tag(5, 0));
  EXPECT_EQ(pieced.piece_bytes_by_peer, (std::vector<std::int64_t>{0, 16384}));
  // Long from 30000 bytes: the pieces and the row are short, a block each.
  EXPECT_EQ(detail::stream_kernel_blocks(pieced.messages, 30000, 1, 3), 10);
  // Whole, the face is long: its receive takes a team of 3.
  EXPECT_EQ(detail::stream_kernel_blocks(messages, 30000, 1, 3), 6);
  // A peer off MPI keeps its messages whole and its tags.
  const detail::PiecedMessages node = detail::cut_into_pieces(messages, kThreeDoubles, 16384, {}, 2,
                                                              32767);
  EXPECT_EQ(node.messages.sends.size(), 2u);
  EXPECT_EQ(node.wire.sends[0].tag, 4);
}

// A tag whose pieces' tags would pass MPI_TAG_UB is refused, naming the message.
TEST(MpiPieces, TagsBeyondTheMpiLimitAreRefused) {
  RankMessages messages;
  messages.sends = {face(50, 50, 1)};
  messages.sends[0].tag = 600;
  try {
    (void)detail::cut_into_pieces(messages, kThreeDoubles, 16384, {1}, 2, 32767);
    FAIL() << "a tag beyond MPI_TAG_UB was accepted";
  } catch (const ConfigError& error) {
    EXPECT_NE(std::string(error.what()).find("send to peer 1 tag 600"), std::string::npos)
        << error.what();
    EXPECT_NE(std::string(error.what()).find("MPI_TAG_UB of 32767"), std::string::npos)
        << error.what();
  }
}

}  // namespace
