// The group contract of the exchange's device functions (block_waits.hpp) is a concept the
// compiler checks: the library's host groups satisfy it, and a type missing a member does not,
// so passing one to embedded_pack/embedded_unpack fails to compile at the call, naming it.
#include <gtest/gtest.h>

#include <array>
#include <barrier>
#include <thread>
#include <vector>

#include "haloflag/kernels/block_waits.hpp"
#include "haloflag/kernels/host_groups.hpp"

namespace haloflag::kernels {
namespace {

struct NoBroadcast {  // a block without from_leader
  int thread() const { return 0; }
  int size() const { return 1; }
  void sync() const {}
};

static_assert(ExchangeGroup<HostThreadGroup>);
static_assert(ExchangeGroup<HostTeamGroup>);
static_assert(!ExchangeGroup<NoBroadcast>);
static_assert(!ExchangeGroup<int>);

TEST(ExchangeGroupConcept, HostGroupsSatisfyItAndIncompleteTypesDoNot) {
  EXPECT_TRUE(ExchangeGroup<HostThreadGroup>);
  EXPECT_TRUE(ExchangeGroup<HostTeamGroup>);
  EXPECT_FALSE(ExchangeGroup<NoBroadcast>);
}

// A team passes every member the value of the member named (from_member) or of member 0
// (from_leader), round after round through its two slots.
TEST(ExchangeGroupConcept, ATeamPassesTheNamedMembersValueToEveryMember) {
  constexpr int kMembers = 4;
  constexpr int kRounds = 6;
  std::barrier<> barrier(kMembers);
  std::array<int, 2> slots{};
  std::array<std::array<int, 2 * kRounds>, kMembers> seen{};
  std::vector<std::thread> team;
  for (int m = 0; m < kMembers; ++m) {
    team.emplace_back([&, m] {
      const HostTeamGroup group{&barrier, &slots, m, kMembers};
      for (int r = 0; r < kRounds; ++r) {
        seen[m][2 * r] = group.from_member(100 * r + m, r % kMembers);
        seen[m][2 * r + 1] = group.from_leader(100 * r + m + 50);
      }
    });
  }
  for (std::thread& member : team) member.join();
  for (int m = 0; m < kMembers; ++m) {
    for (int r = 0; r < kRounds; ++r) {
      EXPECT_EQ(seen[m][2 * r], 100 * r + r % kMembers) << "member " << m << ", round " << r;
      EXPECT_EQ(seen[m][2 * r + 1], 100 * r + 50) << "member " << m << ", round " << r;
    }
  }
}

}  // namespace
}  // namespace haloflag::kernels
