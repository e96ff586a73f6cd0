// embedded_barrier: the group's barrier after an exchange decides for every member whether the
// group leaves, from the statuses its members passed. A team of CPU threads (HostTeamGroup) is
// the grid; the plan's word is a plain host word, as on the host backend.
#include <gtest/gtest.h>

#include <array>
#include <atomic>
#include <barrier>
#include <cstdint>
#include <thread>
#include <vector>

#include "haloflag/kernels/device_plan.hpp"
#include "haloflag/kernels/embedded_api.hpp"
#include "haloflag/kernels/host_groups.hpp"

namespace haloflag::kernels {
namespace {

constexpr int kMembers = 6;

// What each member of the team saw: the epoch at which embedded_barrier sent it home (0: never)
// and how many barriers it passed with ok.
struct MemberRun {
  std::uint64_t left_at = 0;
  int passed = 0;
};

// Every member runs exchanges first .. last; member `failing` passes failed at epoch `fails_at`
// (0: nobody fails). Returns each member's run.
std::array<MemberRun, kMembers> run_team(std::uint64_t* word, std::uint64_t first,
                                         std::uint64_t last, int failing,
                                         std::uint64_t fails_at) {
  ExchangePlan plan;
  plan.group_failed_epoch = word;
  const DevicePlan handle = detail::make_device_plan(plan, kUnregisteredFields, nullptr);
  std::barrier<> barrier(kMembers);
  std::array<int, 2> slots{};
  std::array<MemberRun, kMembers> runs{};
  std::vector<std::jthread> team;
  for (int t = 0; t < kMembers; ++t) {
    team.emplace_back([&, t] {
      const HostTeamGroup group{&barrier, &slots, t, kMembers};
      for (std::uint64_t epoch = first; epoch <= last; ++epoch) {
        const BlockStatus status =
            t == failing && epoch == fails_at ? BlockStatus::failed : BlockStatus::ok;
        if (embedded_barrier(group, handle, epoch, status) != BlockStatus::ok) {
          runs[static_cast<std::size_t>(t)].left_at = epoch;
          return;
        }
        ++runs[static_cast<std::size_t>(t)].passed;
      }
    });
  }
  team.clear();  // joins
  return runs;
}

TEST(EmbeddedBarrier, NoMemberFailedSoEveryMemberGoesOn) {
  std::uint64_t word = 0;
  for (const MemberRun& run : run_team(&word, 1, 20, -1, 0)) {
    EXPECT_EQ(run.left_at, 0u);
    EXPECT_EQ(run.passed, 20);
  }
  EXPECT_EQ(word, 0u) << "members that did not fail store nothing";
}

TEST(EmbeddedBarrier, OneMembersFailureSendsEveryMemberHomeAtThatEpoch) {
  for (int failing : {0, 3, kMembers - 1}) {
    std::uint64_t word = 0;
    for (const MemberRun& run : run_team(&word, 1, 20, failing, 7)) {
      EXPECT_EQ(run.left_at, 7u) << "member " << failing << " failed";
      EXPECT_EQ(run.passed, 6);
    }
    EXPECT_EQ(word, 7u);
  }
}

// A word that holds another epoch is not this epoch's failure: an earlier run's, or one a member
// already past this barrier stored for the next exchange while a slower member still reads.
TEST(EmbeddedBarrier, AnotherEpochsFailureIsNotThisOnes) {
  std::uint64_t word = 4;  // a failure of exchange 4
  for (const MemberRun& run : run_team(&word, 5, 9, -1, 0)) {
    EXPECT_EQ(run.left_at, 0u);
    EXPECT_EQ(run.passed, 5);
  }
  word = 12;  // the next exchange's, stored early
  for (const MemberRun& run : run_team(&word, 11, 11, -1, 0)) EXPECT_EQ(run.left_at, 0u);
}

// The group may be a single block (a ThreadBlockGroup on the GPU): its own status decides.
TEST(EmbeddedBarrier, ALoneMemberLeavesOnItsOwnFailure) {
  std::uint64_t word = 0;
  ExchangePlan plan;
  plan.group_failed_epoch = &word;
  const DevicePlan handle = detail::make_device_plan(plan, kUnregisteredFields, nullptr);
  const HostThreadGroup alone;
  EXPECT_EQ(embedded_barrier(alone, handle, 1, BlockStatus::ok), BlockStatus::ok);
  EXPECT_EQ(embedded_barrier(alone, handle, 2, BlockStatus::failed), BlockStatus::failed);
  EXPECT_EQ(word, 2u);
}

}  // namespace
}  // namespace haloflag::kernels
