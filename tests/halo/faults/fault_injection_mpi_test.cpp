// Fault injection under mpiexec (a peer that never sends, aborts), for every strategy, on the
// host backend (HALOFLAG_TEST_BACKEND=cuda or hip runs the same cases with real kernels; without a
// GPU they skip, saying why): a rank that never sends, an abort raised between start() and
// finish() on one rank, an abort raised by a watchdog thread on every rank while their
// exchanges wait, an abort between exchanges, and resident kernels left idle past the deadline. Every rank must end with
// an error that names what failed (rank, exchange, and the peer, tag, bytes and direction of a
// missing message, or the flag, epoch expected and value last seen of a device-side wait),
// within the deadline, and its kernels must stop. The CTest timeout is only a backstop.
//
// A rank that exits in the middle of an exchange is fault_injection_process_test.cpp: the
// launcher ends the job, which an in-process test cannot observe.
//
// Leftover messages. A case that fails an exchange on purpose leaves sends that no receive will
// take (the silent rank's peers send to it; an aborting rank has cancelled its receives). They
// die with the Exchange's communicator under Open MPI, but MPICH hands the freed communicator's
// context id to the next MPI_Comm_dup and keeps them queued, so the next Exchange's receives
// match them: a peer of the aborting rank then "finishes" on data of an earlier case. CTest
// therefore runs each group of cases (one TEST_P name, every strategy) as a job of its own
// (tests/halo/faults/CMakeLists.txt), and within a group leftovers only ever reach a rank whose
// outcome the group does not depend on: the silent rank never receives, the aborting rank fails
// anyway.
// Run the whole binary at once only under Open MPI.
#include <gtest/gtest.h>
#include <mpi.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <regex>
#include <string>
#include <thread>

#include "exchange_failure.hpp"
#include "haloflag/halo/config_from_geometry.hpp"
#include "haloflag/halo/device_fields.hpp"
#include "haloflag/halo/exchange.hpp"
#include "haloflag/halo/exchange_verifier.hpp"
#include "haloflag/halo/geometry.hpp"
#include "haloflag/halo/host_field.hpp"
#include "haloflag/halo/strategy.hpp"
#include "haloflag/notify/backend.hpp"
#include "mpi_world.hpp"
#include "test_backend.hpp"
#include "test_transport.hpp"

namespace {

using namespace haloflag::halo;
using haloflag::test::contains;
using haloflag::test::ExchangeFailure;
using haloflag::test::backend_unavailable;
using haloflag::test::failure_of;
using haloflag::test::receive_name;
using haloflag::test::test_backend;
using haloflag::test::apply_test_transport;
using haloflag::test::world_rank;
using haloflag::test::world_size;
using Clock = std::chrono::steady_clock;

constexpr auto kDeadline = std::chrono::seconds(2);
constexpr double kDeadlineSeconds = 2.0;
// How late after its deadline an error may come on an oversubscribed machine (2 cores, up to 4
// ranks with their emulated GPU threads).
constexpr double kLateness = 3.0;
// The deadline of exchanges that must finish, or end by abort rather than by the deadline: long
// enough for a machine that other jobs load heavily.
constexpr auto kLongDeadline = std::chrono::seconds(8);
// A failed Exchange's destructor stops its kernels; it must not wait for anything.
constexpr double kTearDownSeconds = 1.0;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// How the engine names a run in its errors: "resident on host".
std::string run_name(Strategy strategy) {
  return std::string(to_string(strategy)) + " on " +
         std::string(haloflag::notify::to_string(test_backend()));
}

// One rank's exchange over a periodic cube shared by every rank, its fields holding the
// verifier's values (the tests look at errors, not at the data).
class FaultScenario {
 public:
  FaultScenario(Strategy strategy, std::chrono::nanoseconds timeout,
                std::chrono::nanoseconds idle_exit = kDefaultIdleExit)
      : geometry_(make_spec()),
        verifier_(geometry_, world_rank()),
        fields_(test_backend(), verifier_.field_extent(), verifier_.vars()),
        host_(verifier_.field_extent(), verifier_.vars()) {
    ExchangeOptions options;
    options.strategy = strategy;
    options.backend = test_backend();
    options.timeout = timeout;
    options.idle_exit = idle_exit;
    apply_test_transport(options);
    verifier_.fill(host_, 1);
    fields_.upload(host_);
    exchange_ = std::make_unique<Exchange>(geometry_, fields_.view(), options);
  }

  Exchange& exchange() { return *exchange_; }

  // Destroys the Exchange (stopping its kernels) and returns how long that took. Called after
  // every rank is past its failure (a barrier), so messages still in flight land in the
  // Exchange's own communicator (under MPICH they may outlive it: see the header).
  double tear_down() {
    MPI_Barrier(MPI_COMM_WORLD);
    const auto started = Clock::now();
    exchange_.reset();
    return seconds_since(started);
  }

  bool node_peer(int peer) const {
    for (const PeerTransport& p : exchange_->peer_transports()) {
      if (p.peer == peer) return p.transport == Transport::node;
    }
    return false;
  }

  bool receives_from(int peer) const {
    for (const Message& m : exchange_->messages().recvs) {
      if (m.peer == peer) return true;
    }
    return false;
  }

  // A deadline error of this rank for exchange `epoch`, with `absent` never sending: it names
  // this rank, the exchange, and every message expected from `absent` (peer, tag, bytes,
  // direction); it came at the deadline, not before and not much after.
  void expect_deadline_error(const ExchangeFailure& failure, int absent, int epoch) const {
    ASSERT_TRUE(failure.thrown) << "rank " << world_rank() << " finished its exchange";
    const std::string& text = failure.message;
    EXPECT_TRUE(contains(text, "rank " + std::to_string(world_rank()) + ", exchange " +
                                   std::to_string(epoch) + " ("))
        << text;
    EXPECT_TRUE(contains(text, "timed out after")) << text;
    for (const Message& m : exchange_->messages().recvs) {
      if (m.peer != absent) continue;
      EXPECT_TRUE(contains(text, receive_name(m) + ", from ")) << text;
    }
    EXPECT_GE(failure.seconds, 0.9 * kDeadlineSeconds) << text;
    EXPECT_LT(failure.seconds, kDeadlineSeconds + kLateness) << text;
  }

 private:
  static GeometrySpec make_spec() {
    GeometrySpec spec;
    spec.global_size = {8, 8, 8};
    spec.ranks = world_size();
    spec.periodic = {true, true, true};
    return spec;
  }

  Geometry geometry_;
  ExchangeVerifier verifier_;
  DeviceFields fields_;
  HostField host_;
  std::unique_ptr<Exchange> exchange_;
};

class EveryStrategy : public testing::TestWithParam<Strategy> {
 protected:
  void SetUp() override {
    if (!backend_unavailable().empty()) GTEST_SKIP() << backend_unavailable();
    if (world_size() < 2) GTEST_SKIP() << "needs a peer";
  }
};

// A rank that sets up but never starts an exchange, so never sends: its peers' exchanges end
// at their deadline with an error naming each message they miss from it.
TEST_P(EveryStrategy, RankThatNeverSendsLeavesItsPeersWithADeadlineErrorNamingTheMessages) {
  const int silent = world_size() - 1;
  FaultScenario scenario(GetParam(), kDeadline);
  if (world_rank() != silent && scenario.receives_from(silent)) {
    const ExchangeFailure failure = failure_of([&] { scenario.exchange().run(); });
    scenario.expect_deadline_error(failure, silent, 1);
    // Unusable afterwards, and it says so.
    const ExchangeFailure again = failure_of([&] { scenario.exchange().start(); });
    EXPECT_TRUE(contains(again.message, "unusable")) << again.message;
  }
  EXPECT_LT(scenario.tear_down(), kTearDownSeconds);
}

// One rank aborts between start() and finish() (before it sends anything): it fails at once,
// naming the reason and what was pending; its peers end at their deadline naming its messages.
TEST_P(EveryStrategy, AbortBetweenStartAndFinishEndsThatRankAtOnceAndItsPeersAtTheDeadline) {
  const int aborting = 0;
  const std::string reason = "fault injection: rank 0 gives up";
  FaultScenario scenario(GetParam(), kDeadline);
  if (world_rank() == aborting) {
    scenario.exchange().start();
    scenario.exchange().abort(reason);
    const ExchangeFailure failure = failure_of([&] { scenario.exchange().finish(); });
    ASSERT_TRUE(failure.thrown);
    const std::string& text = failure.message;
    EXPECT_TRUE(contains(text, "rank 0, exchange 1 (")) << text;
    EXPECT_TRUE(contains(text, "aborted: " + reason + "; still pending:")) << text;
    EXPECT_TRUE(contains(text, "receive from peer ")) << text;
    EXPECT_LT(failure.seconds, 0.25 * kDeadlineSeconds) << text;
    const ExchangeFailure again = failure_of([&] { scenario.exchange().start(); });
    EXPECT_TRUE(contains(again.message, "(aborted: " + reason + "): this Exchange is unusable"))
        << again.message;
  } else if (scenario.receives_from(aborting)) {
    const ExchangeFailure failure = failure_of([&] { scenario.exchange().run(); });
    // Over the node transport the aborting rank's GPU may have delivered every message before
    // the abort reached it: the node transport needs no step of that rank's CPU.
    const bool delivered = !failure.thrown && scenario.node_peer(aborting) && uses_flags(GetParam());
    if (!delivered) scenario.expect_deadline_error(failure, aborting, 1);
  }
  EXPECT_LT(scenario.tear_down(), kTearDownSeconds);
}

// A watchdog thread on every rank aborts while the exchanges wait (rank 0 has started but does
// not progress, so none can finish): each rank's own thread ends with the watchdog's reason
// right after the abort, long before the deadline, whatever its peers do.
TEST_P(EveryStrategy, AbortFromAWatchdogThreadEndsEveryRanksExchange) {
  const std::string reason = "watchdog of rank " + std::to_string(world_rank());
  FaultScenario scenario(GetParam(), kLongDeadline);
  Exchange& exchange = scenario.exchange();
  MPI_Barrier(MPI_COMM_WORLD);
  std::atomic<std::int64_t> aborted_at{0};
  std::thread watchdog([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    aborted_at = Clock::now().time_since_epoch().count();
    exchange.abort(reason);
  });
  ExchangeFailure failure;
  if (world_rank() == 0) {
    exchange.start();
    watchdog.join();
    failure = failure_of([&] { exchange.finish(); });
  } else {
    failure = failure_of([&] {
      for (;;) exchange.run();  // only an error ends it
    });
    watchdog.join();
  }
  ASSERT_TRUE(failure.thrown);
  const double after_abort =
      seconds_since(Clock::time_point(Clock::duration(aborted_at.load())));
  const std::string& text = failure.message;
  EXPECT_TRUE(contains(text, "rank " + std::to_string(world_rank()) + ", exchange ")) << text;
  EXPECT_TRUE(contains(text, "aborted: " + reason + "; still pending:")) << text;
  EXPECT_LT(after_abort, 1.0) << text;
  EXPECT_LT(scenario.tear_down(), kTearDownSeconds);
}

// An abort between exchanges fails the next start(), naming the reason.
TEST_P(EveryStrategy, AbortBetweenExchangesFailsTheNextStart) {
  FaultScenario scenario(GetParam(), kLongDeadline);
  scenario.exchange().run();
  scenario.exchange().abort("shutting down");
  const ExchangeFailure failure = failure_of([&] { scenario.exchange().start(); });
  ASSERT_TRUE(failure.thrown);
  EXPECT_TRUE(contains(failure.message, "rank " + std::to_string(world_rank()) +
                                            ", exchange 1 (" + run_name(GetParam()) +
                                            "): aborted: shutting down"))
      << failure.message;
  EXPECT_LT(scenario.tear_down(), kTearDownSeconds);
}

INSTANTIATE_TEST_SUITE_P(Strategies, EveryStrategy,
                         testing::ValuesIn(all_strategies().begin(), all_strategies().end()),
                         [](const testing::TestParamInfo<Strategy>& param) {
                           return std::string(to_string(param.param));
                         });

// Resident kernels that never leave the GPU (idle_exit = never) wait at most the deadline for
// the next exchange; an exchange started later fails with the device-side wait that timed out:
// flag, index, epoch expected, value last seen.
TEST(ResidentKernels, IdleLongerThanTheDeadlineReportTheFlagTheyWaitedOn) {
  if (!backend_unavailable().empty()) GTEST_SKIP() << backend_unavailable();
  const auto deadline = std::chrono::seconds(2);
  FaultScenario scenario(Strategy::resident, deadline, kIdleExitNever);
  const ExchangeFailure first = failure_of([&] { scenario.exchange().run(); });
  ASSERT_FALSE(first.thrown) << "exchange 1 must finish within the deadline: " << first.message;
  std::this_thread::sleep_for(deadline + std::chrono::milliseconds(500));
  const ExchangeFailure failure = failure_of([&] { scenario.exchange().run(); });
  ASSERT_TRUE(failure.thrown);
  // Every rank's kernels idle for the same deadline, so a wait may see the abort of a peer whose
  // wait ended a moment earlier before its own deadline passes: then it says "aborted".
  const std::regex device_wait(
      "rank [0-9]+, exchange 2 \\(" + run_name(Strategy::resident) + "\\): device-side wait on "
      "(pack_start|unpack_ready)\\[[0-9]+\\] (timed out|aborted) after [0-9.]+ s: expected "
      "epoch >= 2, last seen 1 \\(block [0-9]+\\)");
  EXPECT_TRUE(std::regex_search(failure.message, device_wait)) << failure.message;
  EXPECT_LT(failure.seconds, 1.0) << "the failure was recorded before this exchange began";
  EXPECT_LT(scenario.tear_down(), kTearDownSeconds);
}

// With the default window they leave the GPU instead, and an exchange started after longer than
// the deadline launches them again and succeeds.
TEST(ResidentKernels, IdleLongerThanTheDeadlineLeaveAndComeBack) {
  if (!backend_unavailable().empty()) GTEST_SKIP() << backend_unavailable();
  const auto deadline = std::chrono::seconds(2);
  FaultScenario scenario(Strategy::resident, deadline);
  const ExchangeFailure first = failure_of([&] { scenario.exchange().run(); });
  ASSERT_FALSE(first.thrown) << "exchange 1 must finish within the deadline: " << first.message;
  std::this_thread::sleep_for(deadline + std::chrono::milliseconds(500));
  const ExchangeFailure second = failure_of([&] { scenario.exchange().run(); });
  EXPECT_FALSE(second.thrown) << second.message;
  EXPECT_GE(scenario.exchange().relaunches(), 1U);
  EXPECT_LT(scenario.tear_down(), kTearDownSeconds);
}

}  // namespace
