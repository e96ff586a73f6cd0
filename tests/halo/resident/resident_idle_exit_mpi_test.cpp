// Strategy::resident's kernels leave when idle (ExchangeOptions::idle_exit) and the next start
// launches them again (Exchange::relaunches()), on the host backend, where the "GPU" is a team of
// CPU threads: CI runs it at 2 and 4 ranks, oversubscribed. Every exchange's cells are checked.
//
// - An idle sleep of 50 ms past a 2 ms window: the next run() relaunches, and is right (on a
//   loaded host the sleep doubles until it does, up to 800 ms: sleep_until_relaunched).
// - Starts that come as the window passes, in both forms, are never lost (the host's promise and
//   a watcher's may_leave meet).
// - A tight loop of exchanges never relaunches (its own Exchange with a 1 s window: on two
//   oversubscribed cores a loop of 2 ms gaps may still stall past 2 ms now and then).
// - The stream form (start(queue)/wait(queue) on a notify::HostQueue) after an idle sleep
//   relaunches and is right; a start promised on the queue keeps the kernels until the queue
//   reaches it, however long after the window that is.
// - A promised start that the queue does not reach within the timeout fails, naming it.
// - kIdleExitNever: the kernels stay across an idle sleep (no relaunch), exchanges stay right.
// - The other strategies never relaunch.
// - idle_exit of 0 or below is refused at construction, kind config, naming the option, on
//   every rank.
//
// Each case runs over the node transport (the default on one host) and over MPI.
// resident_coexistence_mpi_test.cpp runs the GPU side: device-wide waits beside the kernels.
#include <gtest/gtest.h>
#include <mpi.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>
#include <thread>

#include "exchange_failure.hpp"
#include "haloflag/error.hpp"
#include "haloflag/halo/exchange.hpp"
#include "haloflag/halo/exchange_options.hpp"
#include "mpi_world.hpp"
#include "resident_idle.hpp"

namespace {

using haloflag::ErrorKind;
using haloflag::halo::ExchangeOptions;
using haloflag::halo::Geometry;
using haloflag::halo::kDefaultIdleExit;
using haloflag::halo::kIdleExitNever;
using haloflag::halo::Strategy;
using haloflag::halo::Transport;
using haloflag::notify::Backend;
using haloflag::test::contains;
using haloflag::test::failure_of;
using haloflag::test::idle_test_geometry;
using haloflag::test::resident_options;
using haloflag::test::seconds_since;
using haloflag::test::StartForm;
using haloflag::test::VerifiedResident;
using haloflag::test::world_rank;

constexpr auto kShortWindow = std::chrono::milliseconds(2);
constexpr auto kIdleSleep = std::chrono::milliseconds(50);
// A window no gap of a tight loop reaches, even on two oversubscribed cores.
constexpr auto kLoopWindow = std::chrono::seconds(1);
constexpr int kLoopExchanges = 100;

struct IdleOutcome {
  bool relaunched = false;  // on every rank
  long slept_ms = 0;
  std::string first_wrong;  // the first exchange whose cells were wrong, "" when none
};

// Sleeps past the window, then runs a checked exchange, until that exchange has relaunched the
// kernels on every rank (the ranks agree, so each rank's last exchange has its peers). 50 ms is
// enough on an idle machine; where other jobs share the cores (CI runs two at once, each of up to
// 8 ranks) a host lane's watcher, which yields between its polls and reads the clock every 16th,
// may not see its window pass for longer, so each further sleep doubles, up to 800 ms. A watcher
// that never leaves fails after 1.55 s of sleeps.
IdleOutcome sleep_until_relaunched(VerifiedResident& resident) {
  const std::uint64_t before = resident.relaunches();
  IdleOutcome outcome;
  auto idle = kIdleSleep;
  for (int attempt = 1; attempt <= 5; ++attempt, idle *= 2) {
    std::this_thread::sleep_for(idle);
    outcome.slept_ms += static_cast<long>(idle.count());
    const std::string report = resident.exchange_and_check();
    if (!report.empty() && outcome.first_wrong.empty()) outcome.first_wrong = report;
    const int mine = resident.relaunches() > before ? 1 : 0;
    int everywhere = 0;
    MPI_Allreduce(&mine, &everywhere, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (everywhere == 1) {
      outcome.relaunched = true;
      if (attempt > 1) {
        std::printf("[rank %d] relaunched after %ld ms of idle sleeps (a loaded host)\n",
                    world_rank(), outcome.slept_ms);
      }
      break;
    }
  }
  return outcome;
}

class IdleExit : public testing::TestWithParam<Transport> {
 protected:
  ExchangeOptions options(std::chrono::nanoseconds idle_exit) const {
    return resident_options(Backend::host, GetParam(), idle_exit);
  }
  const Geometry geometry_ = idle_test_geometry();
};

TEST_P(IdleExit, KernelsLeaveWhenIdleAndTheNextRunRelaunchesThem) {
  VerifiedResident resident(geometry_, options(kShortWindow), StartForm::host);
  EXPECT_EQ(resident.exchange_and_check(), "") << "rank " << world_rank();
  for (int round = 1; round <= 2; ++round) {
    const IdleOutcome idle = sleep_until_relaunched(resident);
    EXPECT_EQ(idle.first_wrong, "") << "rank " << world_rank() << ", round " << round;
    EXPECT_TRUE(idle.relaunched) << "rank " << world_rank() << ", round " << round
                                 << ": no relaunch after " << idle.slept_ms
                                 << " ms idle with a 2 ms window";
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

// Starts that come about when the watchers' windows pass, so that the host's promise and a
// watcher's may_leave meet, again and again: whether the kernels stayed or left, no start may be
// lost (a lost one hangs until the deadline and fails) and every exchange is right. The pauses
// run from a third of the window to eight windows, different on each rank, in both forms in
// turn: a host lane's watcher, a thread that yields between its polls, sees its window pass
// late and by an amount that varies with the machine's load.
TEST_P(IdleExit, StartsAsTheWindowPassesAreNeverLost) {
  const auto window = std::chrono::microseconds(300);
  VerifiedResident resident(geometry_, options(window), StartForm::host);
  std::uint64_t state = 0x9e3779b97f4a7c15ULL * static_cast<std::uint64_t>(world_rank() + 1);
  for (int i = 0; i < 120; ++i) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    const auto pause = std::chrono::microseconds(100 + static_cast<int>((state >> 33) % 2400));
    std::this_thread::sleep_for(pause);
    resident.set_form(i % 2 == 0 ? StartForm::host : StartForm::stream);
    const auto failure = failure_of([&] {
      const std::string report = resident.exchange_and_check();
      EXPECT_EQ(report, "") << "rank " << world_rank() << ", exchange " << i + 1;
    });
    ASSERT_FALSE(failure.thrown) << "rank " << world_rank() << ", exchange " << i + 1 << ": "
                                 << failure.message;
  }
  if (world_rank() == 0) {
    std::printf("%llu relaunches in 120 exchanges after pauses of 0.1 to 2.5 ms (300 us window)\n",
                static_cast<unsigned long long>(resident.relaunches()));
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

TEST_P(IdleExit, ATightLoopOfExchangesNeverRelaunches) {
  VerifiedResident resident(geometry_, options(kLoopWindow), StartForm::host);
  for (int i = 0; i < kLoopExchanges; ++i) {
    const std::string report = resident.exchange_and_check();
    ASSERT_EQ(report, "") << "rank " << world_rank();
  }
  EXPECT_EQ(resident.relaunches(), 0u)
      << "rank " << world_rank() << ": " << kLoopExchanges << " back-to-back exchanges";
  // And a shorter one in the stream form.
  resident.set_form(StartForm::stream);
  for (int i = 0; i < kLoopExchanges / 5; ++i) {
    const std::string report = resident.exchange_and_check();
    ASSERT_EQ(report, "") << "rank " << world_rank() << ", stream form";
  }
  EXPECT_EQ(resident.relaunches(), 0u) << "rank " << world_rank() << ", stream form";
  MPI_Barrier(MPI_COMM_WORLD);
}

TEST_P(IdleExit, TheStreamFormRelaunchesAfterAnIdleSleep) {
  VerifiedResident resident(geometry_, options(kShortWindow), StartForm::stream);
  EXPECT_EQ(resident.exchange_and_check(), "") << "rank " << world_rank();
  const IdleOutcome idle = sleep_until_relaunched(resident);
  EXPECT_EQ(idle.first_wrong, "") << "rank " << world_rank();
  EXPECT_TRUE(idle.relaunched) << "rank " << world_rank() << ": no relaunch after "
                               << idle.slept_ms << " ms idle";
  // And the host form after the stream form, after another idle sleep.
  resident.set_form(StartForm::host);
  const IdleOutcome again = sleep_until_relaunched(resident);
  EXPECT_EQ(again.first_wrong, "") << "rank " << world_rank();
  EXPECT_TRUE(again.relaunched) << "rank " << world_rank() << ": no relaunch after "
                                << again.slept_ms << " ms idle";
  MPI_Barrier(MPI_COMM_WORLD);
}

// start(queue) right after an exchange, behind work that keeps the queue 500 ms, past a 200 ms
// window: the start is promised, so the kernels wait for it instead of leaving, and nothing is
// relaunched.
TEST_P(IdleExit, APromisedStreamStartKeepsTheKernelsUntilTheQueueReachesIt) {
  const auto window = std::chrono::milliseconds(200);
  const auto queue_delay = std::chrono::milliseconds(500);
  VerifiedResident resident(geometry_, options(window), StartForm::stream);
  EXPECT_EQ(resident.exchange_and_check(), "") << "rank " << world_rank();
  const std::uint64_t before = resident.relaunches();
  const auto started = std::chrono::steady_clock::now();
  resident.exchange_behind([queue_delay] { std::this_thread::sleep_for(queue_delay); });
  const double seconds = seconds_since(started);
  EXPECT_GE(seconds, 0.5) << "the queue did not hold the start back";
  EXPECT_EQ(resident.check(), "") << "rank " << world_rank();
  EXPECT_EQ(resident.relaunches(), before)
      << "rank " << world_rank() << ": the kernels left while a start was promised";
  MPI_Barrier(MPI_COMM_WORLD);
}

// A start promised on the queue that the queue does not reach within the timeout: the kernels
// stay for it (a promise) and then fail, and the error names the start that never came and
// start(stream) (the device's failed wait on pack_start, or the host's deadline listing
// pack_start behind its epoch, whichever comes first).
TEST_P(IdleExit, APromisedStartThatNeverComesFailsNamingIt) {
  ExchangeOptions short_deadline = options(std::chrono::milliseconds(50));
  short_deadline.timeout = std::chrono::milliseconds(500);
  VerifiedResident resident(geometry_, short_deadline, StartForm::stream);
  EXPECT_EQ(resident.exchange_and_check(), "") << "rank " << world_rank();
  const auto failure = failure_of([&] {
    resident.exchange_behind([] { std::this_thread::sleep_for(std::chrono::seconds(2)); });
  });
  resident.drain_stream();
  if (world_rank() == 0) std::printf("the error: %s\n", failure.message.c_str());
  EXPECT_TRUE(failure.thrown) << "rank " << world_rank();
  EXPECT_EQ(failure.kind, ErrorKind::timeout) << failure.message;
  EXPECT_TRUE(contains(failure.message, "pack_start")) << failure.message;
  EXPECT_TRUE(contains(failure.message, "start(stream)")) << failure.message;
  EXPECT_LT(failure.seconds, 1.9) << "the error waited for the queue: " << failure.message;
  MPI_Barrier(MPI_COMM_WORLD);
}

TEST_P(IdleExit, NeverLeavesWithIdleExitNever) {
  VerifiedResident resident(geometry_, options(kIdleExitNever), StartForm::host);
  for (const StartForm form : {StartForm::host, StartForm::stream}) {
    resident.set_form(form);
    EXPECT_EQ(resident.exchange_and_check(), "") << "rank " << world_rank();
    std::this_thread::sleep_for(kIdleSleep);
    EXPECT_EQ(resident.exchange_and_check(), "") << "rank " << world_rank();
    EXPECT_EQ(resident.relaunches(), 0u)
        << "rank " << world_rank() << ", " << haloflag::test::form_name(form);
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

TEST_P(IdleExit, OtherStrategiesNeverRelaunch) {
  ExchangeOptions stream_notify = options(kShortWindow);
  stream_notify.strategy = Strategy::stream_notify;
  VerifiedResident exchange(geometry_, stream_notify, StartForm::host);
  EXPECT_EQ(exchange.exchange_and_check(), "") << "rank " << world_rank();
  std::this_thread::sleep_for(kIdleSleep);
  EXPECT_EQ(exchange.exchange_and_check(), "") << "rank " << world_rank();
  EXPECT_EQ(exchange.relaunches(), 0u) << "rank " << world_rank();
  MPI_Barrier(MPI_COMM_WORLD);
}

INSTANTIATE_TEST_SUITE_P(Transports, IdleExit, testing::Values(Transport::automatic, Transport::mpi),
                         [](const testing::TestParamInfo<Transport>& param) {
                           return haloflag::test::transport_name(param.param);
                         });

TEST(IdleExitOption, TheDefaultWindowIsTwoMilliseconds) {
  EXPECT_EQ(ExchangeOptions().idle_exit, kDefaultIdleExit);
  EXPECT_EQ(kDefaultIdleExit, std::chrono::milliseconds(2));
}

TEST(IdleExitOption, ZeroOrNegativeIsRefusedOnEveryRankNamingTheOption) {
  const Geometry geometry = idle_test_geometry();
  for (const std::chrono::nanoseconds idle_exit :
       {std::chrono::nanoseconds(0), std::chrono::nanoseconds(-1),
        std::chrono::nanoseconds(std::chrono::milliseconds(-2))}) {
    const ExchangeOptions options = resident_options(Backend::host, Transport::automatic, idle_exit);
    const auto failure = failure_of(
        [&] { VerifiedResident refused(geometry, options, StartForm::host); });
    EXPECT_TRUE(failure.thrown) << "rank " << world_rank() << ": idle_exit of "
                                << idle_exit.count() << " ns was accepted";
    EXPECT_EQ(failure.kind, ErrorKind::config)
        << "rank " << world_rank() << ": " << haloflag::to_string(failure.kind) << ": "
        << failure.message;
    EXPECT_TRUE(contains(failure.message, "idle_exit")) << failure.message;
    MPI_Barrier(MPI_COMM_WORLD);
  }
}

}  // namespace
