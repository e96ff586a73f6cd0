// resident_piece_bytes: Jacobi3D's messages (double, one rank of two per axis x) against the
// resident grid the default sizes on an H200 (resident_grid_size.hpp), at the sizes measured in
// docs/results/h200x2/2026-11-30_resident_pieces.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "haloflag/examples/resident_piece_size.hpp"

namespace {

using haloflag::examples::pieces_of;
using haloflag::examples::resident_piece_bytes;

constexpr int kDefault = 4096;

// A cube of `side` cells per rank, double: six faces, and with 27 points its 12 edges and 8
// corners.
std::vector<std::int64_t> cube_messages(std::int64_t side, int points) {
  std::vector<std::int64_t> bytes(6, side * side * 8);
  if (points == 27) {
    bytes.insert(bytes.end(), 12, side * 8);
    bytes.insert(bytes.end(), 8, 8);
  }
  return bytes;
}

TEST(ResidentPieceSize, CountsEveryMessagesPieces) {
  EXPECT_EQ(pieces_of(cube_messages(256, 7), kDefault), 768);
  EXPECT_EQ(pieces_of(cube_messages(256, 27), kDefault), 788);
  EXPECT_EQ(pieces_of({1, 4096, 4097}, kDefault), 4);
  EXPECT_EQ(pieces_of({}, kDefault), 0);
}

TEST(ResidentPieceSize, DoublesWhereTheDefaultTakesMoreThanOneRound) {
  // 256^3 on 528 blocks: 768 and 788 pieces of 4 KiB, 384 and 404 of 8 KiB.
  EXPECT_EQ(resident_piece_bytes(cube_messages(256, 7), 528, kDefault), 2 * kDefault);
  EXPECT_EQ(resident_piece_bytes(cube_messages(256, 27), 528, kDefault), 2 * kDefault);
}

TEST(ResidentPieceSize, KeepsTheDefaultWhereOneRoundHoldsItsPieces) {
  EXPECT_EQ(resident_piece_bytes(cube_messages(128, 7), 264, kDefault), kDefault);   // 192
  EXPECT_EQ(resident_piece_bytes(cube_messages(128, 27), 264, kDefault), kDefault);  // 212
  EXPECT_EQ(resident_piece_bytes(cube_messages(32, 27), 128, kDefault), kDefault);   // 32
  EXPECT_EQ(resident_piece_bytes({768 * kDefault}, 768, kDefault), kDefault);  // exactly a round
}

}  // namespace
