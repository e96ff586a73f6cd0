// Strategy::embedded: the caller's own "kernel" packs and unpacks through the device API
// (haloflag/kernels/embedded_api.hpp) while the host runs start()/finish() per epoch.
//
// On the host backend the kernel is a team of std::threads (HostThreadGroup per message, the
// team as one HostTeamGroup for barriers and for leaving together): 50 epochs, every ghost cell
// verified every epoch, with one field and with two alternated through plan.with_fields (double
// buffering); a kernel that never packs ends in the host's deadline error naming the sends; a
// host that never starts makes embedded_pack fail within the deadline, naming pack_start.
// With HALOFLAG_TEST_BACKEND=cuda|hip a real __global__ kernel (embedded_test_kernel.cu) runs
// the verified epochs on ThreadBlockGroups; without a GPU that case skips, saying why.
#include <gtest/gtest.h>
#include <mpi.h>

#include <array>
#include <atomic>
#include <barrier>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <string>
#include <thread>
#include <vector>

#include "exchange_failure.hpp"
#include "geometry_cases.hpp"
#include "haloflag/halo/device_fields.hpp"
#include "haloflag/halo/exchange.hpp"
#include "haloflag/halo/exchange_verifier.hpp"
#include "haloflag/kernels/embedded_api.hpp"
#include "haloflag/kernels/host_groups.hpp"
#include "mpi_world.hpp"
#include "test_backend.hpp"
#include "test_transport.hpp"
#include "typed_field.hpp"

#if defined(HALOFLAG_HAVE_GPU)
#include "embedded_test_kernel.hpp"
#endif

namespace {

using namespace haloflag::halo;
using haloflag::kernels::BlockStatus;
using haloflag::kernels::DevicePlan;
using haloflag::kernels::HostTeamGroup;
using haloflag::kernels::HostThreadGroup;
using haloflag::notify::Backend;
using haloflag::test::contains;
using haloflag::test::failure_of;
using haloflag::test::send_name;
using haloflag::test::test_backend;
using haloflag::test::apply_test_transport;
using haloflag::test::world_rank;

constexpr int kEpochs = 50;
constexpr int kKernelThreads = 3;

#define SKIP_UNLESS_HOST_BACKEND()                                                         \
  do {                                                                                     \
    if (test_backend() != Backend::host) {                                                 \
      GTEST_SKIP() << "the std::thread kernel needs the host backend; this run tests "     \
                   << haloflag::notify::to_string(test_backend());                         \
    }                                                                                      \
  } while (0)

// The geometries: 26 neighbours, periodic (self-messages on one rank), 1 variable; and ghost
// width 2 with 3 variables and a non-periodic axis.
std::vector<haloflag::test::GeometryCase> embedded_cases() {
  std::vector<haloflag::test::GeometryCase> chosen;
  for (const auto& c : haloflag::test::geometry_cases()) {
    if (c.name == "cube_auto_periodic" || c.name == "nondivisible_mixed_ghost2") {
      chosen.push_back(c);
    }
  }
  return chosen;
}

// One rank's fields for an epoch: host copies the verifier fills and checks, device copies the
// kernel packs from and unpacks into. Two of them when double buffering.
struct Buffers {
  Buffers(Backend backend, const ExchangeVerifier& verifier, int count) {
    for (int b = 0; b < count; ++b) {
      device.emplace_back(backend, verifier.field_extent(), verifier.vars());
      host.emplace_back(verifier.field_extent(), verifier.vars());
      filled.push_back(false);
    }
  }
  int count() const { return static_cast<int>(device.size()); }
  // Epoch i uses buffer i % count.
  int of(int i) const { return i % count(); }

  // Writes epoch's values into the host copy and uploads it.
  void prepare(const ExchangeVerifier& verifier, int b, std::uint64_t epoch) {
    const auto index = static_cast<std::size_t>(b);
    if (filled[index]) {
      verifier.refresh(host[index], epoch);
    } else {
      verifier.fill(host[index], epoch);
      filled[index] = true;
    }
    device[index].upload(host[index]);
  }
  // Downloads and checks; "" when every cell is right.
  std::string check(const ExchangeVerifier& verifier, int b, std::uint64_t epoch) {
    const auto index = static_cast<std::size_t>(b);
    device[index].download(host[index]);
    return verifier.check(host[index], epoch);
  }

  std::vector<DeviceFields> device;
  std::vector<HostField> host;
  std::vector<bool> filled;
};

ExchangeOptions embedded_options(std::chrono::milliseconds timeout) {
  ExchangeOptions options;
  options.strategy = Strategy::embedded;
  options.backend = test_backend();
  options.timeout = timeout;
  apply_test_transport(options);
  return options;
}

// What the thread kernel saw.
struct KernelOutcome {
  int wrong_epochs = 0;
  std::string first_report;
  int epochs_done = 0;
  bool failed = false;
};

// The host-backend "user kernel": kKernelThreads threads, thread t packing sends t, t + T, ...
// and unpacking receives t, t + T, ... with HostThreadGroups. Per epoch: thread 0 writes the
// epoch's values (the "stencil update"), team barrier, packs, unpacks, then the team agrees on
// failure (embedded_failed over the team, which every thread reaches) and thread 0 verifies.
KernelOutcome run_thread_kernel(const DevicePlan& original, const ExchangeVerifier& verifier,
                                Buffers& buffers, std::uint64_t first_epoch, int epochs) {
  KernelOutcome outcome;
  std::barrier<> barrier(kKernelThreads);
  std::array<int, 2> slots{};
  auto body = [&](int t) {
    const HostTeamGroup team{&barrier, &slots, t, kKernelThreads};
    const HostThreadGroup block;
    for (int i = 0; i < epochs; ++i) {
      const std::uint64_t epoch = first_epoch + static_cast<std::uint64_t>(i);
      const int b = buffers.of(i);
      const DevicePlan plan =
          original.with_fields(buffers.device[static_cast<std::size_t>(b)].view());
      if (t == 0) buffers.prepare(verifier, b, epoch);
      team.sync();
      BlockStatus status = BlockStatus::ok;
      for (auto m = static_cast<std::uint32_t>(t);
           m < plan.send_count() && status == BlockStatus::ok;
           m += kKernelThreads) {
        status = haloflag::kernels::embedded_pack(block, plan, m, epoch);
      }
      for (auto r = static_cast<std::uint32_t>(t);
           r < plan.recv_count() && status == BlockStatus::ok;
           r += kKernelThreads) {
        status = haloflag::kernels::embedded_unpack(block, plan, r, epoch);
      }
      // Every thread gets here, failed or not, so the team leaves together.
      if (haloflag::kernels::embedded_failed(team, plan)) {
        if (t == 0) outcome.failed = true;
        return;
      }
      if (t == 0) {
        const std::string report = buffers.check(verifier, b, epoch);
        if (!report.empty() && outcome.wrong_epochs++ == 0) outcome.first_report = report;
        outcome.epochs_done = i + 1;
      }
    }
  };
  std::vector<std::jthread> team;
  for (int t = 0; t < kKernelThreads; ++t) team.emplace_back(body, t);
  team.clear();  // joins
  return outcome;
}

// `epochs` verified exchanges with the thread kernel; `buffer_count` 2 alternates two fields.
void run_embedded_epochs(const Geometry& geometry, int buffer_count, const std::string& label) {
  const ExchangeVerifier verifier(geometry, world_rank());
  const ExchangeOptions options = embedded_options(std::chrono::seconds(60));
  Buffers buffers(options.backend, verifier, buffer_count);
  KernelOutcome outcome;
  try {
    Exchange exchange(geometry, buffers.device[0].view(), options);
    const DevicePlan plan = exchange.device_plan();
    ASSERT_EQ(plan.send_count(), exchange.messages().sends.size());
    ASSERT_EQ(plan.recv_count(), exchange.messages().recvs.size());
    EXPECT_TRUE(contains(exchange.launch_description(), "caller's kernel"))
        << exchange.launch_description();
    std::exception_ptr host_error;
    std::thread host([&] {
      try {
        for (int i = 0; i < kEpochs; ++i) {
          exchange.start();
          exchange.finish();
        }
      } catch (...) {
        host_error = std::current_exception();  // the exchange raised abort: the kernel leaves
      }
    });
    outcome = run_thread_kernel(plan, verifier, buffers, 1, kEpochs);
    host.join();
    if (host_error) std::rethrow_exception(host_error);
    EXPECT_EQ(exchange.epoch(), static_cast<std::uint64_t>(kEpochs));
  } catch (const std::exception& error) {
    // Every rank would otherwise wait for its deadline.
    std::fprintf(stderr, "[rank %d] %s: %s\n", world_rank(), label.c_str(), error.what());
    std::fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  EXPECT_FALSE(outcome.failed) << label;
  EXPECT_EQ(outcome.epochs_done, kEpochs) << label;
  EXPECT_EQ(outcome.wrong_epochs, 0) << label << ", rank " << world_rank() << ": "
                                     << outcome.wrong_epochs << " of " << kEpochs
                                     << " epochs wrong; first: " << outcome.first_report;
}

TEST(EmbeddedStrategy, IsNamedParsedAndFlagDrivenButNotInTheStrategyLoops) {
  EXPECT_EQ(to_string(Strategy::embedded), "embedded");
  EXPECT_EQ(parse_strategy("embedded"), Strategy::embedded);
  EXPECT_TRUE(uses_flags(Strategy::embedded));
  for (Strategy s : all_strategies()) EXPECT_NE(s, Strategy::embedded);
}

TEST(EmbeddedExchange, ThreadKernelKeepsEveryGhostCellRightOverManyEpochs) {
  SKIP_UNLESS_HOST_BACKEND();
  for (const auto& c : embedded_cases()) {
    run_embedded_epochs(haloflag::test::make_geometry(c), 1, c.name);
  }
}

TEST(EmbeddedExchange, DoubleBufferingThroughPlanFieldsKeepsBothFieldsRight) {
  SKIP_UNLESS_HOST_BACKEND();
  for (const auto& c : embedded_cases()) {
    run_embedded_epochs(haloflag::test::make_geometry(c), 2, c.name + " double buffered");
  }
}

Geometry small_periodic_geometry() {
  GeometrySpec spec;
  spec.global_size = {8, 8, 8};
  spec.ranks = haloflag::test::world_size();
  spec.periodic = {true, true, true};
  return Geometry(spec);
}

// The caller's kernel never packs: the host's exchange ends at its deadline, naming each send
// that was never packed (its flag, and peer and tag of the message).
TEST(EmbeddedExchange, KernelThatNeverPacksEndsInTheHostsDeadlineNamingTheSend) {
  SKIP_UNLESS_HOST_BACKEND();
  const Geometry geometry = small_periodic_geometry();
  const ExchangeVerifier verifier(geometry, world_rank());
  const auto deadline = std::chrono::seconds(2);
  DeviceFields fields(Backend::host, verifier.field_extent(), verifier.vars());
  {
    Exchange exchange(geometry, fields.view(), embedded_options(deadline));
    const auto failure = failure_of([&] { exchange.run(); });
    ASSERT_TRUE(failure.thrown);
    EXPECT_TRUE(contains(failure.message, "timed out")) << failure.message;
    EXPECT_TRUE(contains(failure.message, send_name(exchange.messages().sends[0])))
        << failure.message;
    // Over MPI the CPU names each send's flag; over the node and self transports one flag says
    // whether every message of the piece grid is done, and the error names them all as not
    // confirmed.
    Transport transport = Transport::mpi;
    for (const PeerTransport& peer : exchange.peer_transports()) {
      if (peer.peer == exchange.messages().sends[0].peer) transport = peer.transport;
    }
    if (transport == Transport::node || transport == Transport::self) {
      EXPECT_TRUE(contains(failure.message, "pieces_done[0] = 0, waiting for 1")) << failure.message;
      EXPECT_TRUE(contains(failure.message, std::string(to_string(transport)) +
                                                " transport, not confirmed"))
          << failure.message;
    } else {
      EXPECT_TRUE(contains(failure.message, "send_ready[0] = 0, waiting for 1"))
          << failure.message;
      EXPECT_TRUE(contains(failure.message, "not packed yet")) << failure.message;
    }
    EXPECT_TRUE(contains(failure.message, "(embedded on host)")) << failure.message;
    EXPECT_GE(failure.seconds, 1.9);
    EXPECT_LT(failure.seconds, 15.0) << failure.message;
    EXPECT_THROW(exchange.start(), ExchangeError);  // unusable after a failure
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

// The host never calls start(): the kernel's embedded_pack gives up at the deadline with
// BlockStatus::failed, the whole team sees embedded_failed, and the host's next exchange reports
// the device-side failure on pack_start.
TEST(EmbeddedExchange, HostThatNeverStartsMakesEmbeddedPackFailNamingPackStart) {
  SKIP_UNLESS_HOST_BACKEND();
  const Geometry geometry = small_periodic_geometry();
  const ExchangeVerifier verifier(geometry, world_rank());
  const ExchangeOptions options = embedded_options(std::chrono::seconds(1));
  DeviceFields fields(Backend::host, verifier.field_extent(), verifier.vars());
  {
    Exchange exchange(geometry, fields.view(), options);
    const DevicePlan plan = exchange.device_plan();
    ASSERT_GT(plan.send_count(), 0u);
    const auto started = std::chrono::steady_clock::now();
    const BlockStatus status = haloflag::kernels::embedded_pack(HostThreadGroup{}, plan, 0, 1);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    EXPECT_EQ(status, haloflag::kernels::BlockStatus::failed);
    EXPECT_GE(seconds, 0.9);
    EXPECT_LT(seconds, 10.0);
    EXPECT_TRUE(haloflag::kernels::embedded_failed(plan));
    EXPECT_TRUE(haloflag::kernels::embedded_failed(HostThreadGroup{}, plan));
    // Nothing was packed (the flag is internal: the test looks behind the handle).
    const auto& internal = haloflag::kernels::detail::plan_of(plan);
    EXPECT_EQ(haloflag::notify::load_relaxed_system(internal.send_ready.word(0)), 0u);

    const auto failure = failure_of([&] { exchange.run(); });
    ASSERT_TRUE(failure.thrown);
    EXPECT_TRUE(contains(failure.message, "device-side wait on pack_start[0] timed out"))
        << failure.message;
    EXPECT_TRUE(contains(failure.message, "expected epoch >= 1, last seen 0")) << failure.message;
    EXPECT_TRUE(contains(failure.message, "start()")) << failure.message;
    EXPECT_LT(failure.seconds, 5.0) << failure.message;
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

// A kernel that passes an epoch the protocol never reaches in turn is refused at once, not at
// the deadline: one epoch ahead of the host's start by two (it skipped one), then one behind it
// (an epoch used twice). The host's next exchange reports the refusal, naming both epochs.
TEST(EmbeddedExchange, EpochOutOfTurnIsRefusedAtOnceNamingBothEpochs) {
  SKIP_UNLESS_HOST_BACKEND();
  const Geometry geometry = small_periodic_geometry();
  const ExchangeVerifier verifier(geometry, world_rank());
  const ExchangeOptions options = embedded_options(std::chrono::seconds(20));
  DeviceFields fields(Backend::host, verifier.field_extent(), verifier.vars());
  const auto refused_at_once = [](auto call) {
    const auto started = std::chrono::steady_clock::now();
    const BlockStatus status = call();
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    EXPECT_EQ(status, haloflag::kernels::BlockStatus::failed);
    EXPECT_LT(seconds, 1.0);
  };
  for (const std::uint64_t wrong : {std::uint64_t{3}, std::uint64_t{0}}) {
    Exchange exchange(geometry, fields.view(), options);
    const DevicePlan plan = exchange.device_plan();
    ASSERT_GT(plan.send_count(), 0u);
    ASSERT_GT(plan.recv_count(), 0u);
    // Before any start the flags show 0: epoch 1 is the next one, 3 skips one, and exchanges
    // count from 1.
    refused_at_once(
        [&] { return haloflag::kernels::embedded_pack(HostThreadGroup{}, plan, 0, wrong); });
    refused_at_once(
        [&] { return haloflag::kernels::embedded_unpack(HostThreadGroup{}, plan, 0, wrong); });
    EXPECT_TRUE(haloflag::kernels::embedded_failed(plan));
    const auto failure = failure_of([&] { exchange.run(); });
    ASSERT_TRUE(failure.thrown);
    EXPECT_TRUE(contains(failure.message, "device-side wait on pack_start[0] refused at once: "
                                          "epoch " + std::to_string(wrong) +
                                              " asked for while the flag shows 0"))
        << failure.message;
    EXPECT_LT(failure.seconds, 5.0) << failure.message;
    MPI_Barrier(MPI_COMM_WORLD);
  }
}

// A node receive checks the epoch against its peer's arrival counter in this rank's memory, not
// against the host's start: a skipped exchange and an exchange of 0 are refused at once, naming
// the counter and the exchange it is on.
TEST(EmbeddedExchange, NodeReceiveOutOfTurnIsRefusedAtOnceByItsArrivalCounter) {
  SKIP_UNLESS_HOST_BACKEND();
  const Geometry geometry = small_periodic_geometry();
  const ExchangeVerifier verifier(geometry, world_rank());
  ExchangeOptions options = embedded_options(std::chrono::seconds(20));
  options.transport = Transport::node;
  DeviceFields fields(Backend::host, verifier.field_extent(), verifier.vars());
  for (const std::uint64_t wrong : {std::uint64_t{3}, std::uint64_t{0}}) {
    Exchange exchange(geometry, fields.view(), options);
    const DevicePlan plan = exchange.device_plan();
    // A receive from another rank: one's own are the self transport's.
    std::uint32_t node = 0;
    while (node < exchange.messages().recvs.size() &&
           exchange.messages().recvs[node].peer == world_rank()) {
      ++node;
    }
    if (node == exchange.messages().recvs.size()) {
      GTEST_SKIP() << "every message of a rank alone is its own (the self transport's)";
    }
    const auto started = std::chrono::steady_clock::now();
    EXPECT_EQ(haloflag::kernels::embedded_unpack(HostThreadGroup{}, plan, node, wrong),
              haloflag::kernels::BlockStatus::failed);
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count(),
              1.0);
    const auto failure = failure_of([&] { exchange.run(); });
    ASSERT_TRUE(failure.thrown);
    EXPECT_TRUE(contains(failure.message, "device-side wait on node_arrival[")) << failure.message;
    EXPECT_TRUE(contains(failure.message, "refused at once: epoch " + std::to_string(wrong) +
                                              " asked for while the flag shows 0"))
        << failure.message;
    MPI_Barrier(MPI_COMM_WORLD);
  }
}

// A self receive (the rank is its own neighbour along y and z) waits on its placed word in
// device memory, which the group copying its send stores: an epoch out of turn is refused at
// once, and a send never copied ends at the deadline naming the word and the receive.
TEST(EmbeddedExchange, SelfReceiveWaitsOnItsPlacedWordWithTheDeadline) {
  SKIP_UNLESS_HOST_BACKEND();
  GeometrySpec spec;
  spec.global_size = {8 * haloflag::test::world_size(), 8, 8};
  spec.ranks = haloflag::test::world_size();
  spec.divide = RankGrid{haloflag::test::world_size(), 1, 1};
  spec.periodic = {true, true, true};
  const Geometry geometry(spec);
  const ExchangeVerifier verifier(geometry, world_rank());
  DeviceFields fields(Backend::host, verifier.field_extent(), verifier.vars());
  for (const std::uint64_t epoch : {std::uint64_t{3}, std::uint64_t{1}}) {
    Exchange exchange(geometry, fields.view(), embedded_options(std::chrono::seconds(1)));
    const DevicePlan plan = exchange.device_plan();
    std::uint32_t self = 0;
    while (self < exchange.messages().recvs.size() &&
           exchange.messages().recvs[self].peer != world_rank()) {
      ++self;
    }
    ASSERT_LT(self, exchange.messages().recvs.size()) << "no message to itself";
    const auto started = std::chrono::steady_clock::now();
    EXPECT_EQ(haloflag::kernels::embedded_unpack(HostThreadGroup{}, plan, self, epoch),
              haloflag::kernels::BlockStatus::failed);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    const auto failure = failure_of([&] { exchange.run(); });
    ASSERT_TRUE(failure.thrown);
    const std::string word = "device-side wait on self_placed[" + std::to_string(self) + "]";
    EXPECT_TRUE(contains(failure.message, word)) << failure.message;
    if (epoch == 3) {
      EXPECT_LT(seconds, 0.5);
      EXPECT_TRUE(contains(failure.message, "refused at once: epoch 3 asked for while the flag "
                                            "shows 0"))
          << failure.message;
    } else {
      EXPECT_GE(seconds, 0.9);
      EXPECT_TRUE(contains(failure.message, "(self transport)")) << failure.message;
    }
    MPI_Barrier(MPI_COMM_WORLD);
  }
}

// A real __global__ kernel of ThreadBlockGroups, one block per message, on the GPU backend.
TEST(EmbeddedExchange, GpuKernelKeepsEveryGhostCellRightWithDoubleBuffering) {
#if !defined(HALOFLAG_HAVE_GPU)
  GTEST_SKIP() << "no GPU backend compiled in (configure with -DHALOFLAG_GPU=cuda or hip)";
#else
  SKIP_UNLESS_GPU_BACKEND("the real kernel (halo_embedded_exchange_<gpu>_np* run it)");
  for (const auto& c : embedded_cases()) {
    const Geometry geometry = haloflag::test::make_geometry(c);
    const ExchangeVerifier verifier(geometry, world_rank());
    const ExchangeOptions options = embedded_options(std::chrono::seconds(30));
    Buffers buffers(options.backend, verifier, 2);
    int wrong_epochs = 0;
    std::string first_report;
    std::vector<haloflag::test::EmbeddedBlockReport> reports;
    try {
      Exchange exchange(geometry, buffers.device[0].view(), options);
      haloflag::test::EmbeddedTestKernel kernel(exchange.device_plan(), buffers.device[0].view(),
                                                buffers.device[1].view(), 1, kEpochs, 256);
      // The host fills the fields before start(): pack_start(epoch) tells the kernel they are
      // ready. The kernel's own stream is non-blocking, so these copies do not wait for it.
      for (int i = 0; i < kEpochs; ++i) {
        const std::uint64_t epoch = static_cast<std::uint64_t>(i) + 1;
        const int b = buffers.of(i);
        buffers.prepare(verifier, b, epoch);
        exchange.start();
        exchange.finish();
        const std::string report = buffers.check(verifier, b, epoch);
        if (!report.empty() && wrong_epochs++ == 0) first_report = report;
      }
      reports = kernel.wait();
    } catch (const std::exception& error) {
      std::fprintf(stderr, "[rank %d] %s on GPU: %s\n", world_rank(), c.name.c_str(), error.what());
      std::fflush(stderr);
      MPI_Abort(MPI_COMM_WORLD, 1);
    }
    EXPECT_EQ(wrong_epochs, 0) << c.name << ", rank " << world_rank() << ": first: " << first_report;
    for (std::size_t b = 0; b < reports.size(); ++b) {
      EXPECT_EQ(static_cast<BlockStatus>(reports[b].status), BlockStatus::ok)
          << c.name << " block " << b;
      EXPECT_EQ(reports[b].epochs_done, static_cast<std::uint32_t>(kEpochs)) << c.name << " block " << b;
      EXPECT_EQ(reports[b].saw_failure, 0) << c.name << " block " << b;
    }
  }
#endif
}

// The same real kernel with fields of other element types and layouts (float, int32 padded,
// a 12-byte structure, interleaved and mixed variables; typed_field.hpp): the embedded API moves
// their bytes as the Exchange's own kernels do, every byte of every cell checked.
TEST(EmbeddedExchange, GpuKernelMovesEveryElementTypeAndLayout) {
#if !defined(HALOFLAG_HAVE_GPU)
  GTEST_SKIP() << "no GPU backend compiled in (configure with -DHALOFLAG_GPU=cuda or hip)";
#else
  SKIP_UNLESS_GPU_BACKEND("the real kernel (the host's thread kernel moves these types in "
                          "halo_element_types_mpi_test)");
  constexpr int kTypedEpochs = 6;
  for (const haloflag::test::TypedLayout& layout : haloflag::test::typed_layouts()) {
    const Geometry geometry = haloflag::test::typed_geometries(layout).back();
    const ExchangeVerifier verifier(geometry, world_rank());
    const ExchangeOptions options = embedded_options(std::chrono::seconds(30));
    haloflag::test::TypedField field(options.backend, verifier.field_extent(), layout);
    int wrong_epochs = 0;
    std::string first_report;
    std::vector<haloflag::test::EmbeddedBlockReport> reports;
    try {
      Exchange exchange(geometry, field.view(), options);
      haloflag::test::EmbeddedTestKernel kernel(exchange.device_plan(), field.view(), field.view(),
                                                1, kTypedEpochs, 256);
      for (int i = 0; i < kTypedEpochs; ++i) {
        const std::uint64_t epoch = static_cast<std::uint64_t>(i) + 1;
        field.prepare(verifier, epoch);
        exchange.start();
        exchange.finish();
        const std::string report = field.check(verifier, epoch);
        if (!report.empty() && wrong_epochs++ == 0) first_report = report;
      }
      reports = kernel.wait();
    } catch (const std::exception& error) {
      std::fprintf(stderr, "[rank %d] %s on GPU: %s\n", world_rank(), layout.name.c_str(),
                   error.what());
      std::fflush(stderr);
      MPI_Abort(MPI_COMM_WORLD, 1);
    }
    EXPECT_EQ(wrong_epochs, 0) << layout.name << ", rank " << world_rank() << ": first: "
                               << first_report;
    for (std::size_t b = 0; b < reports.size(); ++b) {
      EXPECT_EQ(static_cast<BlockStatus>(reports[b].status), BlockStatus::ok)
          << layout.name << " block " << b;
      EXPECT_EQ(reports[b].epochs_done, static_cast<std::uint32_t>(kTypedEpochs))
          << layout.name << " block " << b;
    }
  }
#endif
}

// The GPU kernel's blocks give up on pack_start at the deadline when the host never starts, all
// of them report the failure, and the host's next exchange names pack_start.
TEST(EmbeddedExchange, GpuKernelLeavesWhenTheHostNeverStarts) {
#if !defined(HALOFLAG_HAVE_GPU)
  GTEST_SKIP() << "no GPU backend compiled in (configure with -DHALOFLAG_GPU=cuda or hip)";
#else
  SKIP_UNLESS_GPU_BACKEND("the real kernel");
  const Geometry geometry = small_periodic_geometry();
  const ExchangeVerifier verifier(geometry, world_rank());
  Buffers buffers(test_backend(), verifier, 2);
  {
    Exchange exchange(geometry, buffers.device[0].view(),
                      embedded_options(std::chrono::seconds(1)));
    std::vector<haloflag::test::EmbeddedBlockReport> reports;
    const auto started = std::chrono::steady_clock::now();
    {
      haloflag::test::EmbeddedTestKernel kernel(exchange.device_plan(), buffers.device[0].view(),
                                                buffers.device[1].view(), 1, kEpochs, 256);
      reports = kernel.wait();
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    EXPECT_LT(seconds, 15.0);
    ASSERT_FALSE(reports.empty());
    for (std::size_t b = 0; b < reports.size(); ++b) {
      EXPECT_EQ(static_cast<BlockStatus>(reports[b].status), BlockStatus::failed) << "block " << b;
      EXPECT_EQ(reports[b].epochs_done, 0u) << "block " << b;
      EXPECT_EQ(reports[b].saw_failure, 1) << "block " << b;
    }
    const auto failure = failure_of([&] { exchange.run(); });
    ASSERT_TRUE(failure.thrown);
    EXPECT_TRUE(contains(failure.message, "device-side wait on pack_start[0]")) << failure.message;
    EXPECT_TRUE(contains(failure.message, "expected epoch >= 1, last seen 0")) << failure.message;
  }
  MPI_Barrier(MPI_COMM_WORLD);
#endif
}

}  // namespace
