// How a sweep deals its rows. row_run: the runs of rows its members walk; cut as short as one
// round of the members allows, every member walks at most one run (a run one row shorter would
// leave some members a second one, walking nearly twice the rows of the rest). deal_turn and
// dealt_member: the resident kernel's members left with one item fewer are its last block, then
// its first.
#include <gtest/gtest.h>

#include <cstdint>
#include <set>

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
  EXPECT_EQ(sweep_cut(256, one_rank, members).run, 8);
  EXPECT_EQ(sweep_cut(256, one_rank, members).items, 32768);
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

// The items member m of the deal takes: m, m + members, ... below `items`.
std::int64_t items_of(std::int64_t m, std::int64_t members, std::int64_t items) {
  return m < items % members ? items / members + 1 : items / members;
}

// Three blocks of four members. Every grid member has a place of its own. With fewer items
// than members, the members left without one are the last block (members 8-11) first, then
// the first members; with as many or more, the deal is as it was.
TEST(DealtMember, TheLastBlockThenTheFirstGoWithoutAnItem) {
  const std::int64_t members = 12, block = 4;
  const auto items_at = [&](std::int64_t m, std::int64_t items) {
    return items_of(dealt_member(m, members, deal_turn(items, members, block)), members, items);
  };
  for (const std::int64_t items : {7, 30, 24, 11, 4, 12}) {
    std::set<std::int64_t> places;
    for (std::int64_t m = 0; m < members; ++m) {
      const std::int64_t place = dealt_member(m, members, deal_turn(items, members, block));
      ASSERT_GE(place, 0);
      ASSERT_LT(place, members);
      places.insert(place);
      if (items >= members) {
        EXPECT_EQ(place, m) << items << " items";
      }
    }
    EXPECT_EQ(places.size(), static_cast<std::size_t>(members)) << items << " items";
    if (items >= members) continue;
    // From the last block's first member round to the grid's first ones.
    for (std::int64_t k = 0; k < members; ++k) {
      const std::int64_t m = (members - block + k) % members;
      EXPECT_EQ(items_at(m, items), k < members - items ? 0 : 1) << items << " items, member " << m;
    }
  }
  // 7 items: members 8-11 and 0 have none; 1-7 one each.
  EXPECT_EQ(items_at(0, 7), 0);
  EXPECT_EQ(items_at(1, 7), 1);
  EXPECT_EQ(items_at(7, 7), 1);
  EXPECT_EQ(items_at(8, 7), 0);
}

}  // namespace
