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
using haloflag::examples::updating_piece_bytes;

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

// Sends that update their cells, double on 256 threads a block: pieces of 2 KiB while they
// fill at most three quarters of the grid's round (docs/results/h200x2/2026-11-30_sends_update).
constexpr int kSmallest = 256 * 8;

TEST(UpdatingPieceSize, OneElementPerThreadWhileTheyFillThreeQuartersOfARound) {
  EXPECT_EQ(updating_piece_bytes(cube_messages(32, 7), 128, kDefault, kSmallest), kSmallest);
  EXPECT_EQ(updating_piece_bytes(cube_messages(32, 27), 128, kDefault, kSmallest), kSmallest);
  EXPECT_EQ(updating_piece_bytes(cube_messages(64, 7), 132, kDefault, kSmallest),
            kSmallest);  // 96 pieces of 132 blocks
  EXPECT_EQ(updating_piece_bytes({3 * kSmallest}, 4, kDefault, kSmallest), kSmallest);
}

TEST(UpdatingPieceSize, TheUsualRuleBeyond) {
  EXPECT_EQ(updating_piece_bytes(cube_messages(64, 27), 132, kDefault, kSmallest),
            kDefault);  // 116 pieces of 132 blocks
  EXPECT_EQ(updating_piece_bytes(cube_messages(128, 7), 264, kDefault, kSmallest), kDefault);
  EXPECT_EQ(updating_piece_bytes(cube_messages(256, 7), 528, kDefault, kSmallest),
            2 * kDefault);
  EXPECT_EQ(updating_piece_bytes({4 * kSmallest}, 4, kDefault, kSmallest), kDefault);
  EXPECT_EQ(updating_piece_bytes({1}, 4, kDefault, 0), kDefault);  // no smallest known
}

}  // namespace
