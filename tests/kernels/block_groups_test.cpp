// How the stacked kernel splits its grid into one group of blocks per long receive: every block
// in exactly one group, groups of consecutive blocks as even as can be, and every long receive
// served by a group that has blocks.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "haloflag/kernels/block_programs.hpp"

namespace haloflag::kernels {
namespace {

ExchangePlan plan_with(std::uint32_t recvs, std::uint32_t short_recvs) {
  ExchangePlan plan;
  plan.recv_count = recvs;
  plan.short_recvs = short_recvs;
  return plan;
}

TEST(LongReceiveGroups, EveryBlockInOneGroupOfConsecutiveBlocks) {
  for (const std::uint32_t blocks : {1u, 2u, 3u, 7u, 64u, 132u}) {
    for (const std::uint32_t long_recvs : {0u, 1u, 2u, 5u, 6u, 7u, 200u}) {
      const ExchangePlan plan = plan_with(26 + long_recvs, 26);
      const std::uint32_t expected_groups =
          long_recvs == 0 ? 1 : std::min(long_recvs, blocks);
      std::vector<std::uint32_t> members(expected_groups, 0);
      std::uint32_t previous_index = 0;
      for (std::uint32_t b = 0; b < blocks; ++b) {
        const BlockGroup group = long_receive_group(plan, b, blocks);
        SCOPED_TRACE(testing::Message() << blocks << " blocks, " << long_recvs
                                        << " long receives, block " << b);
        ASSERT_EQ(group.count, expected_groups);
        ASSERT_LT(group.index, group.count);
        EXPECT_GE(group.index, previous_index) << "groups are consecutive blocks";
        EXPECT_LE(group.first, b);
        EXPECT_LT(b, group.first + group.blocks);
        previous_index = group.index;
        ++members[group.index];
        // Every block of the group agrees on where it starts and how many it has.
        EXPECT_EQ(long_receive_group(plan, group.first, blocks).index, group.index);
        EXPECT_EQ(long_receive_group(plan, group.first + group.blocks - 1, blocks).blocks,
                  group.blocks);
      }
      const auto [fewest, most] = std::minmax_element(members.begin(), members.end());
      EXPECT_GE(*fewest, 1u) << "a long receive without blocks would never be unpacked";
      EXPECT_LE(*most - *fewest, 1u) << "groups as even as the block count allows";
    }
  }
}

}  // namespace
}  // namespace haloflag::kernels
