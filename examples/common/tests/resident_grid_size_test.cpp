// default_resident_blocks: the stencil examples' resident grid by default, on an H200's room (132
// multiprocessors, 4 blocks of 256 threads each at the kernels' registers) and on made-up ones.
#include <gtest/gtest.h>

#include <cstdint>

#include "haloflag/examples/resident_grid_size.hpp"

namespace {

using haloflag::examples::default_resident_blocks;
using haloflag::examples::kResidentCellsPerThread;
using haloflag::examples::ResidentGridRoom;

constexpr ResidentGridRoom kH200{132, 4, 1};

std::int64_t cube(std::int64_t side) { return side * side * side; }

TEST(ResidentGridSize, SmallRanksTakeOneRoundOfOneBlockPerMultiprocessor) {
  EXPECT_EQ(default_resident_blocks(kH200, 256, 511 * 1022), 132);  // jacobi2d 1024^2 on 2 ranks
  EXPECT_EQ(default_resident_blocks(kH200, 256, cube(64)), 132);
}

TEST(ResidentGridSize, NoBlockWithoutACell) {
  EXPECT_EQ(default_resident_blocks(kH200, 256, cube(32)), 128);  // 32768 cells, 256 a block
  EXPECT_EQ(default_resident_blocks(kH200, 256, 1), 1);
  EXPECT_EQ(default_resident_blocks(kH200, 256, 0), 1);
}

TEST(ResidentGridSize, WholeRoundsUntilEachThreadHasItsShare) {
  // 128^3: 2 097 152 cells / (256 x 32) = 256 blocks, rounded up to two rounds of 132.
  EXPECT_EQ(default_resident_blocks(kH200, 256, cube(128)), 264);
  // One cell past one round's share takes a second round.
  const std::int64_t one_round = 132 * 256 * kResidentCellsPerThread;
  EXPECT_EQ(default_resident_blocks(kH200, 256, one_round), 132);
  EXPECT_EQ(default_resident_blocks(kH200, 256, one_round + 1), 264);
}

TEST(ResidentGridSize, LargeRanksTakeWhatFits) {
  EXPECT_EQ(default_resident_blocks(kH200, 256, 2047 * 4094), 528);  // jacobi2d 4096^2
  EXPECT_EQ(default_resident_blocks(kH200, 256, cube(256)), 528);
}

TEST(ResidentGridSize, LargerBlocksTakeFewerOfThem) {
  constexpr ResidentGridRoom k512{132, 2, 1};
  EXPECT_EQ(default_resident_blocks(k512, 512, cube(128)), 132);  // 2 097 152 / (512 x 32)
  EXPECT_EQ(default_resident_blocks(k512, 512, cube(256)), 264);
}

TEST(ResidentGridSize, RanksSharingAGpuTakeTheirShareOfRoundsAndRoom) {
  constexpr ResidentGridRoom kShared{132, 4, 2};
  EXPECT_EQ(kShared.fit(), 264);
  EXPECT_EQ(default_resident_blocks(kShared, 256, cube(64)), 66);
  EXPECT_EQ(default_resident_blocks(kShared, 256, cube(128)), 264);  // 4 rounds of 66
  EXPECT_EQ(default_resident_blocks(kShared, 256, cube(256)), 264);
}

TEST(ResidentGridSize, ARoomOfNothingStillAsksForABlockForTheCallerToRefuse) {
  EXPECT_EQ((ResidentGridRoom{132, 0, 1}).fit(), 0);
  EXPECT_EQ(default_resident_blocks(ResidentGridRoom{132, 0, 1}, 256, cube(64)), 1);
  EXPECT_EQ(default_resident_blocks(ResidentGridRoom{0, 4, 1}, 256, cube(64)), 1);
}

}  // namespace
