// Stream-ordered exchanges (Exchange::start(stream), wait(stream)), one Exchange over several
// FieldSets, and the progress thread (ExchangeOptions::progress). On the host backend the
// stream is a notify::HostQueue, so CI checks the ordering: the fields are written by work on
// the queue that ends late, the start enqueued behind it must not pack before it, and work
// enqueued after wait() must find every ghost cell. With HALOFLAG_TEST_BACKEND=cuda|hip the
// same cases run on a GPU stream (fields written before the start, read after a stream sync).
//
// Each case runs over the node transport (the default on one host) and over MPI; the progress
// thread cases need MPI_THREAD_MULTIPLE (HALOFLAG_TEST_MPI_THREAD=multiple, see
// mpi_test_main.cpp) and the thread-level case the default level.
#include <gtest/gtest.h>
#include <mpi.h>
#if defined(__linux__)
#include <sched.h>
#endif

#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "exchange_failure.hpp"
#include "haloflag/halo/device_fields.hpp"
#include "haloflag/halo/exchange.hpp"
#include "haloflag/halo/exchange_verifier.hpp"
#include "haloflag/halo/geometry.hpp"
#include "haloflag/kernels/field_set.hpp"
#include "haloflag/notify/host_queue.hpp"
#include "haloflag/notify/work_stream.hpp"
#include "mpi_world.hpp"
#include "test_backend.hpp"
#include "test_stream.hpp"
#include "test_transport.hpp"

#if defined(HALOFLAG_HAVE_GPU)
#include "haloflag/notify/gpu_handles.hpp"
#endif

namespace {

using haloflag::test::TestStream;

using haloflag::halo::DeviceFields;
using haloflag::halo::Exchange;
using haloflag::halo::ExchangeHandle;
using haloflag::halo::ExchangeError;
using haloflag::halo::ExchangeOptions;
using haloflag::halo::ExchangeVerifier;
using haloflag::halo::Geometry;
using haloflag::halo::GeometrySpec;
using haloflag::halo::HostField;
using haloflag::halo::Progress;
using haloflag::halo::Strategy;
using haloflag::halo::Transport;
using haloflag::notify::Backend;
using haloflag::test::contains;
using haloflag::test::failure_of;
using haloflag::test::test_backend;
using haloflag::test::world_rank;
using haloflag::test::world_size;

// Which single arguments Exchange::start takes. A pointer used to convert to a stream, so
// start(&fields) compiled as a stream-ordered start instead of failing to compile.
template <class Argument>
concept StartTakes = requires(Exchange& exchange, Argument argument) { exchange.start(argument); };
static_assert(StartTakes<const haloflag::kernels::FieldSet&>, "start(fields)");
static_assert(StartTakes<haloflag::notify::HostQueue&>, "start(queue) on the host backend");
static_assert(StartTakes<haloflag::notify::WorkStream>, "start(notify::WorkStream(stream))");
static_assert(!StartTakes<const haloflag::kernels::FieldSet*>, "start(&fields) must not compile");
static_assert(!StartTakes<int*>, "a pointer is no stream");

int thread_level() {
  int provided = MPI_THREAD_SINGLE;
  MPI_Query_thread(&provided);
  return provided;
}

#define SKIP_WITHOUT_THREAD_MULTIPLE()                                                 \
  do {                                                                                 \
    if (thread_level() < MPI_THREAD_MULTIPLE) {                                        \
      GTEST_SKIP() << "MPI initialised below MPI_THREAD_MULTIPLE; this case runs in "  \
                      "the job with HALOFLAG_TEST_MPI_THREAD=multiple";                \
    }                                                                                  \
  } while (0)

// A periodic cube of 8^3 cells per rank, 2 variables, 26 neighbours.
Geometry small_geometry() {
  GeometrySpec spec;
  const int ranks = world_size();
  spec.global_size = {8 * ranks, 8, 8};
  spec.ranks = ranks;
  spec.periodic = {true, true, true};
  spec.vars = 2;
  return Geometry(spec);
}

ExchangeOptions stream_options(Transport transport, Progress progress) {
  ExchangeOptions options;
  options.strategy = Strategy::resident;
  options.backend = test_backend();
  options.transport = transport;
  options.progress = progress;
  options.timeout = std::chrono::seconds(20);
  options.advanced.launch.message_threads = 128;
  return options;
}

// One FieldSet with its host copy: written for an epoch, then checked after it.
struct Buffer {
  Buffer(Backend backend, const ExchangeVerifier& verifier)
      : device(backend, verifier.field_extent(), verifier.vars()),
        host(verifier.field_extent(), verifier.vars()) {}
  DeviceFields device;
  HostField host;
};

// `exchanges` stream-ordered exchanges alternating over `buffers` FieldSets of one Exchange.
// Each epoch's fields are written by work on the stream that first sleeps, so a start that did
// not wait for it would pack the previous epoch's values; the check runs on the stream after
// wait(). Returns the first wrong report ("" when every exchange was right).
std::string run_stream_exchanges(Transport transport, Progress progress, int buffer_count,
                                 int exchanges) {
  const Geometry geometry = small_geometry();
  const ExchangeVerifier verifier(geometry, world_rank());
  const ExchangeOptions options = stream_options(transport, progress);
  std::vector<std::unique_ptr<Buffer>> buffers;
  for (int b = 0; b < buffer_count; ++b) {
    buffers.push_back(std::make_unique<Buffer>(options.backend, verifier));
  }
  std::string first_wrong;
  TestStream stream(options.backend);
  Exchange exchange(geometry, buffers[0]->device.view(), options);
  // A GPU stream runs host work only once it is idle, so the caller's progress must first have
  // completed the exchanges over MPI that the stream waits for.
  const auto drive_mpi_peers = [&] {
    if (options.backend != Backend::host && progress == Progress::caller) {
      while (!exchange.progress()) std::this_thread::yield();
    }
  };
  for (int i = 0; i < exchanges; ++i) {
    const std::uint64_t epoch = exchange.epoch() + 1;
    Buffer& buffer = *buffers[static_cast<std::size_t>(i % buffer_count)];
    drive_mpi_peers();
    stream.enqueue_host_work([&verifier, &buffer, epoch] {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      verifier.fill(buffer.host, epoch);
      buffer.device.upload(buffer.host);
    });
    exchange.start(stream.handle(), buffer.device.view());
    exchange.wait(stream.handle());
    drive_mpi_peers();
    stream.enqueue_host_work([&verifier, &buffer, &first_wrong, epoch] {
      buffer.device.download(buffer.host);
      const std::string report = verifier.check_all(buffer.host, epoch);
      if (!report.empty() && first_wrong.empty()) {
        first_wrong = "exchange " + std::to_string(epoch) + ": " + report;
      }
    });
    // The caller's progress() drives the MPI peers between its enqueues.
    if (progress == Progress::caller) (void)exchange.progress();
  }
  // One host synchronisation for the whole run, then the CPU side is closed.
  if (progress == Progress::caller && transport == Transport::mpi) {
    // The stream waits on exchanges that only progress() can complete over MPI.
    while (!exchange.progress()) std::this_thread::yield();
  }
  stream.synchronize();
  exchange.finish();
  EXPECT_EQ(exchange.epoch(), static_cast<std::uint64_t>(exchanges));
  return first_wrong;
}

class OverEachTransport : public testing::TestWithParam<Transport> {};

TEST_P(OverEachTransport, WorkAfterWaitSeesTheGhostCellsAndStartWaitsForEarlierWork) {
  SKIP_WITHOUT_BACKEND();
  EXPECT_EQ(run_stream_exchanges(GetParam(), Progress::caller, 1, 6), "")
      << "rank " << world_rank();
}

TEST_P(OverEachTransport, OneExchangeServesTwoFieldSetsInTurn) {
  SKIP_WITHOUT_BACKEND();
  EXPECT_EQ(run_stream_exchanges(GetParam(), Progress::caller, 2, 6), "")
      << "rank " << world_rank();
}

// An Exchange moves like a handle: into a container, out of it, and back; its kernels keep
// serving the one it was moved to, and a moved-from one says so instead of crashing.
TEST_P(OverEachTransport, AnExchangeMovesAndAMovedFromOneSaysSo) {
  SKIP_WITHOUT_BACKEND();
  const Geometry geometry = small_geometry();
  const ExchangeVerifier verifier(geometry, world_rank());
  const ExchangeOptions options = stream_options(GetParam(), Progress::caller);
  Buffer buffer(options.backend, verifier);
  const auto run_checked = [&](Exchange& exchange) {
    const std::uint64_t epoch = exchange.epoch() + 1;
    verifier.fill(buffer.host, epoch);
    buffer.device.upload(buffer.host);
    exchange.run();
    buffer.device.download(buffer.host);
    EXPECT_EQ(verifier.check_all(buffer.host, epoch), "") << "exchange " << epoch;
  };
  std::vector<Exchange> held;
  held.push_back(Exchange(geometry, buffer.device.view(), options));
  run_checked(held.back());
  Exchange moved = std::move(held.back());
  try {
    held.back().start();
    ADD_FAILURE() << "start() on a moved-from Exchange did not throw";
  } catch (const haloflag::halo::ExchangeError& error) {
    EXPECT_NE(std::string(error.what()).find("moved from"), std::string::npos) << error.what();
  }
  run_checked(moved);
  held.back() = std::move(moved);
  EXPECT_THROW((void)moved.epoch(), haloflag::halo::ExchangeError);
  run_checked(held.back());
  EXPECT_EQ(held.back().epoch(), 3u);
}

// start() returns the exchange's handle: wait() completes it, test() advances it without
// blocking; the handle survives a move of its Exchange, and once the Exchange is gone (or for
// a handle of nothing) it says so, as a usage error.
TEST_P(OverEachTransport, StartReturnsAHandleThatWaitsTestsAndOutlivesAMoveButNotTheExchange) {
  SKIP_WITHOUT_BACKEND();
  const Geometry geometry = small_geometry();
  const ExchangeVerifier verifier(geometry, world_rank());
  const ExchangeOptions options = stream_options(GetParam(), Progress::caller);
  Buffer buffer(options.backend, verifier);
  ExchangeHandle first;
  {
    std::vector<Exchange> held;
    held.push_back(Exchange(geometry, buffer.device.view(), options));
    for (int i = 0; i < 4; ++i) {
      const std::uint64_t epoch = held.back().epoch() + 1;
      verifier.fill(buffer.host, epoch);
      buffer.device.upload(buffer.host);
      ExchangeHandle handle = held.back().start();
      EXPECT_EQ(handle.epoch(), epoch);
      if (i % 2 == 0) {
        handle.wait();
      } else {
        while (!handle.test()) std::this_thread::yield();
      }
      EXPECT_TRUE(handle.test());
      buffer.device.download(buffer.host);
      EXPECT_EQ(verifier.check_all(buffer.host, epoch), "") << "exchange " << epoch;
      if (i == 0) first = handle;
    }
    // Moved, the Exchange keeps its handles; an earlier exchange's handle reports complete.
    Exchange moved = std::move(held.back());
    EXPECT_TRUE(first.test());
    first.wait();
    ExchangeHandle last = moved.start();
    last.wait();
    EXPECT_EQ(moved.epoch(), 5u);
  }
  try {
    first.wait();
    ADD_FAILURE() << "a handle of a destroyed Exchange waited";
  } catch (const haloflag::halo::ExchangeError& error) {
    EXPECT_EQ(error.kind(), haloflag::ErrorKind::usage);
    EXPECT_NE(std::string(error.what()).find("handle was destroyed"), std::string::npos)
        << error.what();
  }
  EXPECT_THROW((void)ExchangeHandle().test(), haloflag::halo::ExchangeError);
}

TEST_P(OverEachTransport, HostStartsAlternateFieldSets) {
  SKIP_WITHOUT_BACKEND();
  const Geometry geometry = small_geometry();
  const ExchangeVerifier verifier(geometry, world_rank());
  ExchangeOptions options = stream_options(GetParam(), Progress::caller);
  options.strategy = Strategy::stream_notify;
  Buffer even(options.backend, verifier);
  Buffer odd(options.backend, verifier);
  Exchange exchange(geometry, even.device.view(), options);
  for (int i = 0; i < 4; ++i) {
    Buffer& buffer = i % 2 == 0 ? even : odd;
    const std::uint64_t epoch = exchange.epoch() + 1;
    verifier.fill(buffer.host, epoch);
    buffer.device.upload(buffer.host);
    exchange.start(buffer.device.view());
    exchange.finish();
    buffer.device.download(buffer.host);
    EXPECT_EQ(verifier.check_all(buffer.host, epoch), "") << "exchange " << epoch;
  }
}

TEST_P(OverEachTransport, ProgressThreadRunsStreamAndHostExchanges) {
  SKIP_WITHOUT_BACKEND();
  SKIP_WITHOUT_THREAD_MULTIPLE();
  EXPECT_EQ(run_stream_exchanges(GetParam(), Progress::thread, 2, 6), "")
      << "rank " << world_rank();
}

#if defined(__linux__)
// Binds the calling thread to the one core it runs on, as mpiexec binds a rank by default, and
// restores its affinity after.
class OnOneCore {
 public:
  OnOneCore() {
    sched_getaffinity(0, sizeof(saved_), &saved_);
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(sched_getcpu(), &one);
    sched_setaffinity(0, sizeof(one), &one);
  }
  ~OnOneCore() { sched_setaffinity(0, sizeof(saved_), &saved_); }
  OnOneCore(const OnOneCore&) = delete;
  OnOneCore& operator=(const OnOneCore&) = delete;

 private:
  cpu_set_t saved_;
};

// The progress thread then shares the caller's core: the Exchange says so, the caller sleeps in
// finish() and in a handle's wait() instead of spinning beside the thread, and every exchange,
// stream-ordered or started by the host, is still right.
TEST_P(OverEachTransport, ProgressThreadOnTheCallersOneCoreSaysSoAndEveryExchangeIsRight) {
  SKIP_WITHOUT_BACKEND();
  SKIP_WITHOUT_THREAD_MULTIPLE();
  const Geometry geometry = small_geometry();
  const ExchangeVerifier verifier(geometry, world_rank());
  const ExchangeOptions options = stream_options(GetParam(), Progress::thread);
  Buffer buffer(options.backend, verifier);
  const OnOneCore one_core;
  Exchange exchange(geometry, buffer.device.view(), options);
  EXPECT_TRUE(contains(exchange.launch_description(), "shares the caller's one core"))
      << exchange.launch_description();
  for (std::uint64_t epoch = 1; epoch <= 4; ++epoch) {
    verifier.fill(buffer.host, epoch);
    buffer.device.upload(buffer.host);
    if (epoch % 2 == 1) {
      exchange.run();
    } else {
      exchange.start().wait();
    }
    buffer.device.download(buffer.host);
    EXPECT_EQ(verifier.check_all(buffer.host, epoch), "") << "rank " << world_rank();
  }
  EXPECT_EQ(run_stream_exchanges(GetParam(), Progress::thread, 2, 4), "")
      << "rank " << world_rank();
}
#endif

INSTANTIATE_TEST_SUITE_P(Transports, OverEachTransport,
                         testing::Values(Transport::automatic, Transport::mpi),
                         [](const testing::TestParamInfo<Transport>& param) {
                           return param.param == Transport::mpi ? std::string("mpi")
                                                               : std::string("node");
                         });

// Rank 0 aborts instead of starting exchange 2; the others, all its neighbours at 2 and 3 ranks,
// start it on their streams. Every rank's next call throws (rank 0 naming its reason, the
// others their deadline and what was pending), and no stream is left waiting. Run in a job of
// its own (CMakeLists.txt).
TEST(ProgressThread, AbortAndDeadlinesEndEveryRanksStreamExchange) {
  SKIP_WITHOUT_BACKEND();
  SKIP_WITHOUT_THREAD_MULTIPLE();
  if (world_size() < 2 || world_size() > 3) GTEST_SKIP() << "runs at 2 and 3 ranks";
  const Geometry geometry = small_geometry();
  const ExchangeVerifier verifier(geometry, world_rank());
  ExchangeOptions options = stream_options(Transport::mpi, Progress::thread);
  options.timeout = std::chrono::seconds(2);
  Buffer buffer(options.backend, verifier);
  TestStream stream(options.backend);
  Exchange exchange(geometry, buffer.device.view(), options);
  verifier.fill(buffer.host, 1);
  buffer.device.upload(buffer.host);
  exchange.start(stream.handle());
  exchange.wait(stream.handle());
  stream.synchronize();
  exchange.finish();
  MPI_Barrier(MPI_COMM_WORLD);
  if (world_rank() == 0) {
    exchange.abort("the test stops rank 0");
    const auto failure = failure_of([&] { exchange.start(stream.handle()); });
    ASSERT_TRUE(failure.thrown);
    EXPECT_TRUE(contains(failure.message, "the test stops rank 0")) << failure.message;
  } else {
    exchange.start(stream.handle());
    exchange.wait(stream.handle());
    const auto failure = failure_of([&] { exchange.finish(); });
    ASSERT_TRUE(failure.thrown) << "rank " << world_rank();
    EXPECT_LT(failure.seconds, 10.0) << failure.message;
    EXPECT_TRUE(contains(failure.message, "pending")) << failure.message;
    // The stream's wait was released when the kernels ended.
    const auto started = std::chrono::steady_clock::now();
    stream.synchronize();
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count(),
              10.0);
    const auto again = failure_of([&] { exchange.start(stream.handle()); });
    EXPECT_TRUE(again.thrown && contains(again.message, "unusable")) << again.message;
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

TEST(ThreadLevel, TooLowForAProgressThreadFailsAtConstruction) {
  SKIP_WITHOUT_BACKEND();
  if (thread_level() >= MPI_THREAD_MULTIPLE) {
    GTEST_SKIP() << "MPI initialised with MPI_THREAD_MULTIPLE; this case runs in the job with "
                    "the default level";
  }
  const Geometry geometry = small_geometry();
  const ExchangeVerifier verifier(geometry, world_rank());
  const ExchangeOptions options = stream_options(Transport::automatic, Progress::thread);
  Buffer buffer(options.backend, verifier);
  const auto failure =
      failure_of([&] { Exchange exchange(geometry, buffer.device.view(), options); });
  ASSERT_TRUE(failure.thrown);
  EXPECT_TRUE(contains(failure.message, "MPI_THREAD_MULTIPLE")) << failure.message;
}

TEST(StreamForm, MisuseIsRefusedWithTheReason) {
  SKIP_WITHOUT_BACKEND();
  const Geometry geometry = small_geometry();
  const ExchangeVerifier verifier(geometry, world_rank());
  ExchangeOptions options = stream_options(Transport::automatic, Progress::caller);
  Buffer buffer(options.backend, verifier);
  TestStream stream(options.backend);
  {
    options.strategy = Strategy::stream_notify;
    Exchange exchange(geometry, buffer.device.view(), options);
    const auto failure = failure_of([&] { exchange.start(stream.handle()); });
    EXPECT_TRUE(contains(failure.message, "needs Strategy::resident")) << failure.message;
  }
  options.strategy = Strategy::resident;
  // Allocated before the resident kernels start: an allocation may wait for running kernels.
  DeviceFields one_variable(options.backend, verifier.field_extent(), 1);
  Exchange exchange(geometry, buffer.device.view(), options);
  verifier.fill(buffer.host, 1);
  buffer.device.upload(buffer.host);
  exchange.start(stream.handle());
  const auto twice = failure_of([&] { exchange.start(stream.handle()); });
  EXPECT_TRUE(contains(twice.message, "before wait(stream)")) << twice.message;
  exchange.wait(stream.handle());
  stream.synchronize();
  exchange.finish();
  const auto shape = failure_of([&] { exchange.start(one_variable.view()); });
  EXPECT_TRUE(contains(shape.message, "variables")) << shape.message;
  if (options.backend == Backend::host) {
    // A pointer no longer converts to a stream by itself (work_stream_test.cpp); one wrapped on
    // purpose, as a GPU stream would be, is still refused at run time on the host backend.
    int not_a_stream = 0;
    const auto wrong = failure_of(
        [&] { exchange.start(haloflag::notify::WorkStream(&not_a_stream)); });
    EXPECT_TRUE(contains(wrong.message, "HostQueue")) << wrong.message;
  }
}

}  // namespace
