// How a sweep deals its rows. row_run: the runs of rows its members walk; cut as short as one
// round of the members allows, every member walks at most one run (a run one row shorter would
// leave some members a second one, walking nearly twice the rows of the rest). deal_turn and
// dealt_member: the resident kernel's members left with one item fewer are its last block, then
// its first. interior_deal: the blocks that move send pieces take no interior where the others
// can take it in one round.
#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <vector>

#include "interior_deal.hpp"
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

// A plane `nx` floats wide whose rows go in 16-byte groups (nx / 4 a row): the planes' addresses
// only decide that, and no cell is read.
PlaneStep<float> plane_of_width(std::int64_t nx) { return {nullptr, nullptr, nx}; }

// The items each grid member takes under `deal`: sweep_rows' items m, m + members, ... of the
// place dealt_member gives it.
std::vector<std::int64_t> items_per_member(const PlaneStep<float>& step, const RowSet& set,
                                           std::int64_t members, const InteriorDeal& deal) {
  const std::int64_t items = sweep_items(step, set, deal.members);
  std::vector<std::int64_t> taken(static_cast<std::size_t>(members), 0);
  std::set<std::int64_t> places;
  for (std::int64_t m = 0; m < members; ++m) {
    const std::int64_t place = dealt_member(m, members, deal.turn);
    EXPECT_TRUE(places.insert(place).second) << "place " << place << " dealt twice";
    for (std::int64_t item = place; item < items; item += deal.members) ++taken[m];
  }
  return taken;
}

std::int64_t total(const std::vector<std::int64_t>& taken) {
  std::int64_t sum = 0;
  for (const std::int64_t t : taken) sum += t;
  return sum;
}

// One rank of two at 1024^2 (1024 x 513: 509 interior rows, 256 groups a row) on a grid of 132
// blocks of 256, whose first 8 move the node pieces: the other 124 take every item, each at
// most one, and the members left over are the grid's last blocks.
TEST(InteriorDeal, TheSendBlocksTakeNoneWhereTheOthersTakeAllInOneRound) {
  const std::int64_t block = 256, members = 132 * block, send_blocks = 8;
  const PlaneStep<float> step = plane_of_width(1024);
  const RowSet set = interior_rows(511);
  const InteriorDeal deal = interior_deal(step, set, members, block, send_blocks);
  EXPECT_EQ(deal.members, members - send_blocks * block);
  const std::vector<std::int64_t> taken = items_per_member(step, set, members, deal);
  const std::int64_t items = sweep_items(step, set, deal.members);
  EXPECT_EQ(total(taken), items);
  EXPECT_LE(items, deal.members);
  for (std::int64_t m = 0; m < send_blocks * block; ++m) ASSERT_EQ(taken[m], 0) << "member " << m;
  // Every other member takes one item, up to the items; the rest are the grid's last members.
  for (std::int64_t m = send_blocks * block; m < members; ++m) {
    ASSERT_EQ(taken[m], m - send_blocks * block < items ? 1 : 0) << "member " << m;
  }
  // Each row still walks a run: 509 rows over 124 runs a column, 5 rows each.
  EXPECT_EQ(sweep_cut(256, set, deal.members).run, 5);
}

// Where the others would need a second round (16384^2 on 528 blocks: 4094 groups a row), where
// the send blocks are over half the grid, or where no block moves a send piece, every member is
// dealt items as deal_turn turns them.
TEST(InteriorDeal, EveryMemberWhereTheOthersCannotTakeAllInOneRound) {
  const std::int64_t block = 256;
  const auto as_before = [&](const PlaneStep<float>& step, const RowSet& set,
                             std::int64_t members, std::int64_t send_blocks) {
    const InteriorDeal deal = interior_deal(step, set, members, block, send_blocks);
    EXPECT_EQ(deal.members, members);
    EXPECT_EQ(deal.turn, deal_turn(sweep_items(step, set, members), members, block));
    EXPECT_EQ(total(items_per_member(step, set, members, deal)), sweep_items(step, set, members));
  };
  as_before(plane_of_width(16384), interior_rows(8190), 528 * block, 9);
  as_before(plane_of_width(1024), interior_rows(511), 40 * block, 21);
  as_before(plane_of_width(1024), interior_rows(511), 132 * block, 0);
  // A rank of two rows has no interior: nothing to deal, and nobody takes anything.
  const InteriorDeal none = interior_deal(plane_of_width(1024), interior_rows(2), 4, 1, 1);
  EXPECT_EQ(total(items_per_member(plane_of_width(1024), interior_rows(2), 4, none)), 0);
}

// The host backend's blocks of one thread, cells by cell (a row not a whole number of groups):
// 8 members, 2 of them moving pieces, 5 columns of 9 rows in one round of runs.
TEST(InteriorDeal, BlocksOfOneThreadCellByCell) {
  const PlaneStep<float> step = plane_of_width(7);  // 5 cells between the fixed columns
  const RowSet set = interior_rows(11);             // rows 2 .. 10
  const InteriorDeal deal = interior_deal(step, set, 8, 1, 2);
  EXPECT_EQ(deal.members, 6);
  const std::vector<std::int64_t> taken = items_per_member(step, set, 8, deal);
  EXPECT_EQ(taken, (std::vector<std::int64_t>{0, 0, 1, 1, 1, 1, 1, 0}));
  EXPECT_EQ(sweep_cut(5, set, deal.members).run, 9);
}

}  // namespace
