// row_run: the runs of rows a sweep's members walk. Cut as short as one round of the members
// allows, every member walks at most one run; a run one row shorter would leave some members a
// second one, walking nearly twice the rows of the rest.
#include <gtest/gtest.h>

#include <cstdint>

#include "row_sweep.hpp"

namespace {

using namespace jacobi2d;

// Items of `units` a row over `set`'s rows in runs of `run`.
std::int64_t items(std::int64_t units, const RowSet& set, std::int64_t run) {
  return units * ((set.count + run - 1) / run);
}

// The resident grid's interior at 1024^2 in floats (256 groups a row), 132 blocks of 256: on
// one rank 1020 rows go in runs of 8 (32768 items for 33792 members), on two ranks 509 rows in
// runs of 4; runs of 7 and 3 took two rounds.
TEST(RowRun, OneRoundWhereTheRunsAllowIt) {
  const std::int64_t members = 132 * 256;
  const RowSet one_rank{2, 1020, 1};
  EXPECT_EQ(row_run(256, one_rank, members), 8);
  EXPECT_LE(items(256, one_rank, 8), members);
  EXPECT_GT(items(256, one_rank, 7), members);
  EXPECT_EQ(row_run(256, RowSet{2, 509, 1}, members), 4);
  // 4096^2 on one rank, 528 blocks: 4092 rows, 1024 groups a row, in runs of 31, exactly one
  // round.
  EXPECT_EQ(row_run(1024, RowSet{2, 4092, 1}, 528 * 256), 31);
  EXPECT_EQ(items(1024, RowSet{2, 4092, 1}, 31), 528 * 256);
}

TEST(RowRun, LongestBeyondOneRoundAndOneRowWhenApart) {
  // 16384^2: more rows than 32 a member; a row wider than the members.
  EXPECT_EQ(row_run(4096, RowSet{2, 16380, 1}, 528 * 256), kMaxRowRun);
  EXPECT_EQ(row_run(300, RowSet{2, 40, 1}, 256), kMaxRowRun);
  // Fewer rows than runs a column: one row each.
  EXPECT_EQ(row_run(10, RowSet{2, 5, 1}, 100), 1);
  // The first and last row, apart: nothing to keep between them.
  EXPECT_EQ(row_run(256, RowSet{1, 2, 1019}, 4), 1);
}

}  // namespace
