// returned_within, which bounds the nccl transport's blocking NCCL calls by the Exchange's
// deadline: a call that returns in time is waited for (its exception rethrown), and one that
// never returns leaves the caller at the deadline, the call still running on its own thread.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <stdexcept>
#include <thread>

#include "transports/nccl/watched_call.hpp"

namespace {

using haloflag::halo::detail::returned_within;
using namespace std::chrono_literals;

TEST(WatchedCall, ACallThatReturnsInTimeIsWaitedFor) {
  int value = 0;
  EXPECT_TRUE(returned_within([&] { value = 42; }, 5s));
  EXPECT_EQ(value, 42);  // the call's effects are seen after it returned
}

TEST(WatchedCall, AnExceptionOfTheCallReachesTheCaller) {
  EXPECT_THROW((void)returned_within([] { throw std::runtime_error("inside"); }, 5s),
               std::runtime_error);
}

TEST(WatchedCall, ACallThatNeverReturnsLeavesTheCallerAtTheDeadline) {
  const auto release = std::make_shared<std::atomic<bool>>(false);
  const auto start = std::chrono::steady_clock::now();
  const bool in_time = returned_within(
      [release] {
        while (!release->load()) std::this_thread::sleep_for(1ms);
      },
      200ms);
  const auto waited = std::chrono::steady_clock::now() - start;
  EXPECT_FALSE(in_time);
  EXPECT_GE(waited, 200ms);
  EXPECT_LT(waited, 5s);
  release->store(true);  // the detached call owns `release` and ends on its own
}

}  // namespace
