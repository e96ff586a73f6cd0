// The whole exchange started from inside the caller's kernel (haloflag/kernels/
// embedded_exchange.hpp) on the host backend: a team of threads stands for the kernel's grid,
// thread t being block t of T, and runs embedded_exchange_start and _finish for every epoch with
// no host call in between; every ghost cell is checked after each epoch, double buffered. Over
// MPI too (the CPU state machine beside the kernel), and in nodes of 2 ranks mixing node, MPI
// and self peers. Then the device epoch's checks (an epoch out of turn refused at once) and an
// abort from the host stopping the kernel. With HALOFLAG_TEST_BACKEND=cuda|hip
// (the GPU jobs) a cooperative GPU grid runs verified exchanges and the abort case.
#include <gtest/gtest.h>
#include <mpi.h>

#include <array>
#include <barrier>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "exchange_failure.hpp"
#include "haloflag/halo/device_fields.hpp"
#include "haloflag/halo/errors.hpp"
#include "haloflag/halo/exchange.hpp"
#include "haloflag/halo/exchange_verifier.hpp"
#include "haloflag/halo/host_field.hpp"
#include "haloflag/kernels/embedded_exchange.hpp"
#include "haloflag/kernels/host_groups.hpp"
#include "mpi_world.hpp"
#include "test_backend.hpp"
#include "test_transport.hpp"
#include "whole_exchange_kernel.hpp"

namespace {

using namespace haloflag::halo;
using haloflag::kernels::BlockStatus;
using haloflag::kernels::DevicePlan;
using haloflag::kernels::HostTeamGroup;
using haloflag::kernels::HostThreadGroup;
using haloflag::notify::Backend;
using haloflag::test::contains;
using haloflag::test::failure_of;
using haloflag::test::world_rank;
using haloflag::test::world_size;

constexpr int kBlocks = 3;  // the "grid": threads, each a block
constexpr int kEpochs = 12;

#define SKIP_UNLESS_HOST_BACKEND()                                                    \
  do {                                                                                \
    if (haloflag::test::test_backend() != Backend::host) {                            \
      GTEST_SKIP() << "the std::thread kernel needs the host backend; this run tests " \
                   << haloflag::notify::to_string(haloflag::test::test_backend());    \
    }                                                                                 \
  } while (0)

// 26 neighbours, periodic, the ranks along x: each rank is its own neighbour along y and z, and
// its x neighbours are node peers (one host).
Geometry slab() {
  GeometrySpec spec;
  spec.global_size = {6 * world_size(), 7, 5};
  spec.ranks = world_size();
  spec.divide = RankGrid{world_size(), 1, 1};
  spec.periodic = {true, true, true};
  spec.vars = 2;
  return Geometry(spec);
}

ExchangeOptions embedded_options() {
  ExchangeOptions options;
  options.strategy = Strategy::embedded;
  options.backend = Backend::host;
  options.timeout = std::chrono::seconds(30);
  options.advanced.node_lines_up_to_bytes = haloflag::test::test_node_lines();
  return options;
}

// Two fields, exchanged in turn (epoch e on field e % 2), each filled with its epoch's values by
// block 0 before the grid's barrier, as a stencil sweep would write it.
struct TwoFields {
  explicit TwoFields(const ExchangeVerifier& verifier)
      : device{DeviceFields(Backend::host, verifier.field_extent(), verifier.vars()),
               DeviceFields(Backend::host, verifier.field_extent(), verifier.vars())},
        host{HostField(verifier.field_extent(), verifier.vars()),
             HostField(verifier.field_extent(), verifier.vars())} {}
  std::array<DeviceFields, 2> device;
  std::array<HostField, 2> host;
};

struct GridOutcome {
  bool failed = false;
  int epochs_done = 0;
  int wrong_epochs = 0;
  std::string first_report;
};

// The plans of the two fields: the buffered handle's with_fields (the default), or the Exchange's
// device_plan(fields) of each, which names the slots map_fields() registered.
std::array<DevicePlan, 2> buffered_plans(const DevicePlan& original, TwoFields& fields) {
  return {original.with_fields(fields.device[0].view()),
          original.with_fields(fields.device[1].view())};
}

// What each finish says of the next exchange (kernels::NextExchange): nothing; the plan of the
// next epoch's field, except at the run's last epoch; or, wrongly, this epoch's own plan.
enum class SaysNext { nothing, next_field, same_field };

// The "kernel": kBlocks blocks of `members` threads each (one thread: a HostThreadGroup, more: a
// HostTeamGroup of their own) run epochs first .. first + count - 1, each started and finished
// from inside, with a barrier of the whole grid before start (the fields are written) and after
// finish (every ghost cell is in); the grid's first thread then checks every ghost cell.
GridOutcome run_grid(const std::array<DevicePlan, 2>& plans, const ExchangeVerifier& verifier,
                     TwoFields& fields, std::uint64_t first, int count,
                     SaysNext says = SaysNext::nothing, int members = 1) {
  GridOutcome outcome;
  const int threads = kBlocks * members;
  std::barrier<> barrier(threads);
  std::array<int, 2> slots{};
  std::vector<std::unique_ptr<std::barrier<>>> block_barriers;
  std::vector<std::array<int, 2>> block_slots(kBlocks);
  for (int b = 0; b < kBlocks; ++b) {
    block_barriers.push_back(std::make_unique<std::barrier<>>(members));
  }
  auto blocks_run = [&](const auto& block, const HostTeamGroup& grid, int b) {
    const auto index = static_cast<std::uint32_t>(b);
    const bool leader = grid.thread() == 0;
    for (int i = 0; i < count; ++i) {
      const std::uint64_t epoch = first + static_cast<std::uint64_t>(i);
      const auto f = static_cast<std::size_t>(epoch % 2);
      const DevicePlan& plan = plans[f];
      if (leader) {
        verifier.fill(fields.host[f], epoch);
        fields.device[f].upload(fields.host[f]);
      }
      grid.sync();
      BlockStatus status =
          haloflag::kernels::embedded_exchange_start(block, plan, index, kBlocks, epoch);
      haloflag::kernels::NextExchange next;
      if (says != SaysNext::nothing && i + 1 < count) {
        next = haloflag::kernels::next_exchange_on(
            plans[says == SaysNext::next_field ? 1 - f : f]);
      }
      if (status == BlockStatus::ok) {
        status = haloflag::kernels::embedded_exchange_finish(block, plan, index, kBlocks, epoch,
                                                             next);
      }
      if (haloflag::kernels::embedded_barrier(grid, plan, epoch, status) != BlockStatus::ok) {
        if (leader) outcome.failed = true;
        return;
      }
      if (leader) {
        fields.device[f].download(fields.host[f]);
        const std::string report = verifier.check_all(fields.host[f], epoch);
        if (!report.empty() && outcome.wrong_epochs++ == 0) outcome.first_report = report;
        outcome.epochs_done = i + 1;
      }
      grid.sync();
    }
  };
  auto body = [&](int t) {
    const HostTeamGroup grid{&barrier, &slots, t, threads};
    const int b = t / members;
    if (members == 1) {
      blocks_run(HostThreadGroup{}, grid, b);
    } else {
      const auto index = static_cast<std::size_t>(b);
      blocks_run(HostTeamGroup{block_barriers[index].get(), &block_slots[index], t % members,
                               members},
                 grid, b);
    }
  };
  std::vector<std::jthread> team;
  for (int t = 0; t < threads; ++t) team.emplace_back(body, t);
  team.clear();  // joins
  return outcome;
}

// The kernel ran every epoch, and every ghost cell of each was right.
void expect_every_ghost_cell(const GridOutcome& outcome, const std::string& what) {
  EXPECT_FALSE(outcome.failed) << what;
  EXPECT_EQ(outcome.epochs_done, kEpochs) << what;
  EXPECT_EQ(outcome.wrong_epochs, 0)
      << what << ", rank " << world_rank() << ": " << outcome.wrong_epochs << " of " << kEpochs
      << " epochs wrong; first: " << outcome.first_report;
}

TEST(EmbeddedWholeExchange, KernelStartsEveryExchangeItselfOverNodeAndSelf) {
  SKIP_UNLESS_HOST_BACKEND();
  const Geometry geometry = slab();
  const ExchangeVerifier verifier(geometry, world_rank());
  TwoFields fields(verifier);
  Exchange exchange(geometry, fields.device[0].view(), embedded_options());
  bool self = false;
  for (const PeerTransport& peer : exchange.peer_transports()) {
    EXPECT_NE(peer.transport, Transport::mpi) << describe(exchange.peer_transports());
    self = self || peer.transport == Transport::self;
  }
  EXPECT_TRUE(self) << describe(exchange.peer_transports());
  const GridOutcome outcome =
      run_grid(buffered_plans(exchange.device_plan(), fields), verifier, fields, 1, kEpochs);
  // The host's only calls: how far the kernel went, then the end.
  exchange.started_on_device(kEpochs);
  exchange.finish();
  EXPECT_EQ(exchange.epoch(), static_cast<std::uint64_t>(kEpochs));
  expect_every_ghost_cell(outcome, "blocks of one thread");
  MPI_Barrier(MPI_COMM_WORLD);
}

// Blocks of more than a warp's threads: each block's words into its node peers (the start's
// announce, the early tell, a set of lines freed) then come from its member 32
// (kernels::peer_word_writer) while member 0 counts and leads, the split the GPU's blocks run.
// Every ghost cell checked, as with blocks of one thread.
TEST(EmbeddedWholeExchange, BlocksOfManyThreadsSplitTheirWordsIntoPeersFromTheirCounts) {
  SKIP_UNLESS_HOST_BACKEND();
  constexpr int kMembers = 40;
  const Geometry geometry = slab();
  const ExchangeVerifier verifier(geometry, world_rank());
  TwoFields fields(verifier);
  Exchange exchange(geometry, fields.device[0].view(), embedded_options());
  const GridOutcome outcome = run_grid(buffered_plans(exchange.device_plan(), fields), verifier,
                                       fields, 1, kEpochs, SaysNext::nothing, kMembers);
  exchange.started_on_device(kEpochs);
  exchange.finish();
  expect_every_ghost_cell(outcome, "blocks of " + std::to_string(kMembers) + " threads");
  MPI_Barrier(MPI_COMM_WORLD);
}

// Fields given to map_fields() take a slot; device_plan(fields) names it in the epochs' ghosts_free
// words, so that senders that mapped it place straight into the ghost cells (GPU backends) and
// the others keep to the buffers (the host backend, whose processes cannot map each other's
// fields). Plans of both kinds alternate run to run, mapped ones also with each finish saying
// where the next exchange goes (told to the peers early), every ghost cell checked.
TEST(EmbeddedWholeExchange, MappedFieldsAreExchangedBySlot) {
  SKIP_UNLESS_HOST_BACKEND();
  const Geometry geometry = slab();
  const ExchangeVerifier verifier(geometry, world_rank());
  TwoFields fields(verifier);
  Exchange exchange(geometry, fields.device[0].view(), embedded_options());
  EXPECT_EQ(exchange.map_fields(fields.device[1].view()), 1u);
  // The same sets again, everywhere: already mapped, their slot returned.
  EXPECT_EQ(exchange.map_fields(fields.device[1].view()), 1u);
  EXPECT_EQ(exchange.map_fields(fields.device[0].view()), 0u);
  const std::array<DevicePlan, 2> mapped{exchange.device_plan(fields.device[0].view()),
                                         exchange.device_plan(fields.device[1].view())};
  const std::array<DevicePlan, 2> buffered = buffered_plans(exchange.device_plan(), fields);
  std::uint64_t first = 1;
  int run = 0;
  for (const auto* plans : {&mapped, &buffered, &mapped, &mapped, &buffered, &mapped, &buffered}) {
    // The fourth and sixth runs (mapped plans, after a mapped and after a buffered run) say
    // their next fields; a buffered run follows each.
    const SaysNext says = run == 3 || run == 5 ? SaysNext::next_field : SaysNext::nothing;
    ++run;
    const GridOutcome outcome = run_grid(*plans, verifier, fields, first, kEpochs, says);
    first += kEpochs;
    exchange.started_on_device(first - 1);
    exchange.finish();
    EXPECT_FALSE(outcome.failed);
    EXPECT_EQ(outcome.wrong_epochs, 0)
        << "rank " << world_rank() << ", " << (plans == &mapped ? "mapped" : "buffered")
        << " plans" << (says == SaysNext::next_field ? ", next said" : "")
        << ": " << outcome.wrong_epochs << " of " << kEpochs << " epochs wrong; first: "
        << outcome.first_report;
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

TEST(EmbeddedWholeExchange, MapFieldsRefusesWhatItCannotKeep) {
  SKIP_UNLESS_HOST_BACKEND();
  const Geometry geometry = slab();
  const ExchangeVerifier verifier(geometry, world_rank());
  TwoFields fields(verifier);
  // Resident kernels may hold the routes once an exchange has run.
  ExchangeOptions resident = embedded_options();
  resident.strategy = Strategy::resident;
  Exchange exchange(geometry, fields.device[0].view(), resident);
  exchange.run();
  const auto late = failure_of([&] { exchange.map_fields(fields.device[1].view()); });
  ASSERT_TRUE(late.thrown);
  EXPECT_TRUE(contains(late.message, "map_fields() after the first exchange needs "
                                     "Strategy::embedded or stream_notify"))
      << late.message;
  // Ranks that disagree (rank 0 maps a new set, the others the one mapped at set-up) fail
  // everywhere, at once.
  Exchange embedded(geometry, fields.device[0].view(), embedded_options());
  if (world_size() > 1) {
    const auto disagree = failure_of([&] {
      (void)embedded.map_fields(fields.device[world_rank() == 0 ? 1 : 0].view());
    });
    ASSERT_TRUE(disagree.thrown);
    EXPECT_TRUE(contains(disagree.message, "map_fields(): the ranks disagree")) << disagree.message;
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

// Runs `start` (a block's embedded_exchange_start that must fail) and expects it back within a
// second; then tells `exchange` the kernel went to epoch 1 and returns what finish() throws ("":
// nothing).
std::string refused_at_once(Exchange& exchange, const std::function<BlockStatus()>& start) {
  const auto started = std::chrono::steady_clock::now();
  EXPECT_EQ(start(), BlockStatus::failed);
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count(),
            1.0);
  const auto failure = failure_of([&] {
    exchange.started_on_device(1);
    exchange.finish();
  });
  return failure.thrown ? failure.message : std::string();
}

// An epoch out of turn (one skipped, or 0) is refused at once by every block, recorded as
// device_epoch[0], and the host's finish reports it.
TEST(EmbeddedWholeExchange, EpochOutOfTurnIsRefusedAtOnce) {
  SKIP_UNLESS_HOST_BACKEND();
  const Geometry geometry = slab();
  const ExchangeVerifier verifier(geometry, world_rank());
  TwoFields fields(verifier);
  for (const std::uint64_t wrong : {std::uint64_t{2}, std::uint64_t{0}}) {
    Exchange exchange(geometry, fields.device[0].view(), embedded_options());
    const DevicePlan plan = exchange.device_plan();
    const std::string message = refused_at_once(exchange, [&] {
      return haloflag::kernels::embedded_exchange_start(HostThreadGroup{}, plan, 0, 1, wrong);
    });
    EXPECT_TRUE(contains(message, "device-side wait on device_epoch[0] refused at once: epoch " +
                                      std::to_string(wrong) + " asked for while the flag shows 0"))
        << message;
    MPI_Barrier(MPI_COMM_WORLD);
  }
}

// The caller's kernel may be compiled without the node transport's lines: embedded_lines_build
// names that build where no node peer takes lines, and the build refuses a plan with lines at
// once, recorded, and the host's finish reports it.
TEST(EmbeddedWholeExchange, ABuildWithoutLinesRefusesAPlanWithLinesAtOnce) {
  SKIP_UNLESS_HOST_BACKEND();
  if (world_size() < 2) GTEST_SKIP() << "needs a node peer";
  using haloflag::kernels::embedded_lines_build;
  using haloflag::kernels::LinesCode;
  const Geometry geometry = slab();
  const ExchangeVerifier verifier(geometry, world_rank());
  TwoFields fields(verifier);
  ExchangeOptions counted = embedded_options();
  counted.advanced.node_lines_up_to_bytes = 0;
  {
    const Exchange counted_exchange(geometry, fields.device[0].view(), counted);
    EXPECT_EQ(embedded_lines_build(counted_exchange.device_plan()), LinesCode::absent);
  }
  MPI_Barrier(MPI_COMM_WORLD);

  ExchangeOptions in_lines = embedded_options();
  in_lines.advanced.node_lines_up_to_bytes = std::int64_t{1} << 20;
  Exchange exchange(geometry, fields.device[0].view(), in_lines);
  const DevicePlan plan = exchange.device_plan();
  ASSERT_EQ(embedded_lines_build(plan), LinesCode::present) << describe(exchange.peer_transports());
  const std::string message = refused_at_once(exchange, [&] {
    return haloflag::kernels::embedded_exchange_start<LinesCode::absent>(HostThreadGroup{}, plan,
                                                                          0, 1, 1);
  });
  EXPECT_TRUE(contains(message, "refused at once for epoch 1: the kernel was built without the "
                                "node transport's lines"))
      << message;
  MPI_Barrier(MPI_COMM_WORLD);
}

// A finish that says the next exchange takes other fields than the one that follows (here: the
// same field again) has told its node peers to place there early: the next exchange's finish
// records it as node_ghosts_free[peer] (wrong_fields), the grid fails at its barrier, and the
// host's finish() names the peer and the slot.
TEST(EmbeddedWholeExchange, ANextExchangeOnOtherFieldsThanSaidFails) {
  SKIP_UNLESS_HOST_BACKEND();
  if (world_size() < 2) GTEST_SKIP() << "needs a node peer";
  const Geometry geometry = slab();
  const ExchangeVerifier verifier(geometry, world_rank());
  TwoFields fields(verifier);
  ExchangeOptions counted = embedded_options();
  counted.advanced.node_lines_up_to_bytes = 0;  // lines free their words by parity instead
  Exchange exchange(geometry, fields.device[0].view(), counted);
  (void)exchange.map_fields(fields.device[1].view());
  const std::array<DevicePlan, 2> mapped{exchange.device_plan(fields.device[0].view()),
                                         exchange.device_plan(fields.device[1].view())};
  const GridOutcome outcome = run_grid(mapped, verifier, fields, 1, 3, SaysNext::same_field);
  EXPECT_TRUE(outcome.failed);
  EXPECT_EQ(outcome.epochs_done, 1);  // epoch 1 completes; epoch 2 took field 0, not field 1
  const auto failure = failure_of([&] {
    exchange.started_on_device(2);
    exchange.finish();
  });
  ASSERT_TRUE(failure.thrown);
  EXPECT_TRUE(contains(failure.message, "node_ghosts_free[")) << failure.message;
  EXPECT_TRUE(contains(failure.message, "refused for epoch 2: the last exchange's finish said "
                                        "this one takes the fields of slot 1"))
      << failure.message;
  EXPECT_TRUE(contains(failure.message, "the peer told early is node peer ")) << failure.message;
  MPI_Barrier(MPI_COMM_WORLD);
}

// The backend of the GPU jobs (HALOFLAG_TEST_BACKEND), or the host backend.
ExchangeOptions embedded_options_on(Backend backend) {
  ExchangeOptions options = embedded_options();
  options.backend = backend;
  return options;
}

#if defined(HALOFLAG_HAVE_GPU)
// Runs of the real grid (whole_exchange_kernel.cu, a cooperative kernel), each of `count`
// exchanges with plan `direct` or `buffered`, every ghost cell checked after each run; the host
// calls only started_on_device and finish().
void run_gpu_grid(Exchange& exchange, DeviceFields& fields, const ExchangeVerifier& verifier,
                  const DevicePlan& direct, const DevicePlan& buffered,
                  const std::vector<std::pair<std::uint32_t, bool>>& runs) {
  const Backend backend = haloflag::test::test_backend();
  HostField host(verifier.field_extent(), verifier.vars());
  std::uint64_t last = 0;
  for (const auto& [count, placed] : runs) {
    const std::uint64_t first = last + 1;
    last += count;
    if (first == 1) {
      verifier.fill(host, last);
    } else {
      verifier.refresh(host, last);  // the ghost cells keep the old values until exchanged
    }
    fields.upload(host);
    exchange.started_on_device(last);
    haloflag::test::WholeExchangeKernel kernel(backend, placed ? direct : buffered, first, count);
    exchange.finish();
    const char* form = placed ? "direct" : "buffered";
    EXPECT_TRUE(kernel.wait()) << form << " exchanges " << first << " to " << last;
    fields.download(host);
    const std::string report = verifier.check_all(host, last);
    EXPECT_TRUE(report.empty()) << "rank " << world_rank() << ", " << form << " exchanges "
                                << first << " to " << last << ": " << report;
  }
}
#endif

// On a GPU backend the real grid: many exchanges with no host step, then one more after new
// values. The first runs take the plan whose node senders place straight into the ghost cells
// (device_plan(fields)), then the buffered one; a direct plan after a buffered run goes through
// the buffers too (each buffered exchange frees the buffer for the next one as it unpacks,
// announcing it buffered), and must still be right.
TEST(EmbeddedWholeExchange, GpuGridMovesEveryGhostCellWithNoHostStep) {
#if !defined(HALOFLAG_HAVE_GPU)
  GTEST_SKIP() << "no GPU backend compiled in (configure with -DHALOFLAG_GPU=cuda or hip)";
#else
  // Binds one GPU per node-local rank, or skips saying why there is none.
  SKIP_UNLESS_GPU_BACKEND("the cooperative grid (halo_embedded_whole_exchange_<gpu>_np* run it)");
  const Geometry geometry = slab();
  const ExchangeVerifier verifier(geometry, world_rank());
  DeviceFields fields(haloflag::test::test_backend(), verifier.field_extent(), verifier.vars());
  Exchange exchange(geometry, fields.view(), embedded_options_on(haloflag::test::test_backend()));
  const auto epochs = static_cast<std::uint32_t>(kEpochs);
  run_gpu_grid(exchange, fields, verifier, exchange.device_plan(fields.view()),
               exchange.device_plan(),
               {{epochs, true}, {1u, true}, {epochs, false}, {1u, false}, {epochs, true}});
  MPI_Barrier(MPI_COMM_WORLD);
#endif
}

// Placement by shape from the kernel: the ranks along y, rows of 16 cells, and every short-row
// receive through the buffer (node_buffered_from_bytes 0): in one epoch of a direct plan the y
// faces are placed into the ghost cells and the edges and corners (rows of one cell) come
// through the buffer, unpacked by the receiver's blocks.
TEST(EmbeddedWholeExchange, GpuGridMixesPlacedAndBufferedMessagesInOneEpoch) {
#if !defined(HALOFLAG_HAVE_GPU)
  GTEST_SKIP() << "no GPU backend compiled in (configure with -DHALOFLAG_GPU=cuda or hip)";
#else
  SKIP_UNLESS_GPU_BACKEND("the cooperative grid (halo_embedded_whole_exchange_<gpu>_np* run it)");
  GeometrySpec spec;
  spec.global_size = {16, 6 * world_size(), 5};
  spec.ranks = world_size();
  spec.divide = RankGrid{1, world_size(), 1};
  spec.periodic = {true, true, true};
  spec.vars = 2;
  const Geometry geometry(spec);
  const ExchangeVerifier verifier(geometry, world_rank());
  DeviceFields fields(haloflag::test::test_backend(), verifier.field_extent(), verifier.vars());
  ExchangeOptions options = embedded_options_on(haloflag::test::test_backend());
  options.advanced.node_buffered_from_bytes = 0;
  Exchange exchange(geometry, fields.view(), options);
  for (const PeerTransport& peer : exchange.peer_transports()) {
    if (peer.transport == Transport::node) {
      EXPECT_GT(peer.recvs_through_buffer, 0) << describe(exchange.peer_transports());
    }
  }
  const auto epochs = static_cast<std::uint32_t>(kEpochs);
  run_gpu_grid(exchange, fields, verifier, exchange.device_plan(fields.view()),
               exchange.device_plan(), {{epochs, true}, {epochs, false}, {epochs, true}});
  MPI_Barrier(MPI_COMM_WORLD);
#endif
}

// An abort from the host ends the kernel within an exchange, though every wait of it succeeds
// (every rank aborts, so no peer is left waiting): the kernel stops long before the deadline and
// finish() names the abort. On the test's backend: the team of threads, or the GPU grid.
TEST(EmbeddedWholeExchange, AbortFromTheHostStopsTheKernel) {
  SKIP_WITHOUT_BACKEND();  // on a GPU backend: binds one GPU per rank, or says why there is none
  const Backend backend = haloflag::test::test_backend();
  const Geometry geometry = slab();
  const ExchangeVerifier verifier(geometry, world_rank());
  DeviceFields fields(backend, verifier.field_extent(), verifier.vars());
  ExchangeOptions options = embedded_options_on(backend);
  options.timeout = std::chrono::seconds(20);
  Exchange exchange(geometry, fields.view(), options);
  constexpr std::uint32_t kMany = 100'000'000;  // far more than run before the abort
  exchange.started_on_device(kMany);
  haloflag::test::WholeExchangeKernel kernel(backend, exchange.device_plan(), 1, kMany);
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  const auto aborted = std::chrono::steady_clock::now();
  exchange.abort("the test aborts");
  EXPECT_FALSE(kernel.wait()) << "the kernel ran every exchange";
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - aborted).count();
  EXPECT_LT(seconds, 5.0) << "the kernel stopped at its deadline, not at the abort";
  const auto failure = failure_of([&] { exchange.finish(); });
  ASSERT_TRUE(failure.thrown);
  EXPECT_TRUE(contains(failure.message, "the test aborts")) << failure.message;
  MPI_Barrier(MPI_COMM_WORLD);
}

// Peers over MPI: the kernel starts every exchange as over node, and the CPU state machine takes
// the exchanges in turn beside it, with no start() or finish() per exchange: in the caller's
// finish() (Progress::caller), or in the progress thread while the caller only waits.
// kEpochs more exchanges, the host following them beside the "kernel"; `plans` default to the
// buffered ones.
GridOutcome run_grid_beside_host(Exchange& exchange, const ExchangeVerifier& verifier,
                                 TwoFields& fields,
                                 const std::optional<std::array<DevicePlan, 2>>& plans = {}) {
  const std::uint64_t first = exchange.epoch() + 1;
  const std::uint64_t last = first + kEpochs - 1;
  exchange.started_on_device(last);
  GridOutcome outcome;
  std::jthread kernel([&] {
    outcome = run_grid(plans ? *plans : buffered_plans(exchange.device_plan(), fields), verifier,
                       fields, first, kEpochs);
  });
  exchange.finish();
  kernel.join();
  EXPECT_EQ(exchange.epoch(), last);
  return outcome;
}

TEST(EmbeddedWholeExchange, PeersOverMpiAreDrivenBesideTheKernel) {
  SKIP_UNLESS_HOST_BACKEND();
  if (world_size() < 2) GTEST_SKIP() << "one rank has no peer over MPI";
  const Geometry geometry = slab();
  const ExchangeVerifier verifier(geometry, world_rank());
  for (const Progress progress : {Progress::caller, Progress::thread}) {
    TwoFields fields(verifier);
    ExchangeOptions options = embedded_options();
    options.transport = Transport::mpi;
    options.progress = progress;
    Exchange exchange(geometry, fields.device[0].view(), options);
    EXPECT_TRUE(exchange.can_start_on_device());
    bool over_mpi = false;
    for (const PeerTransport& peer : exchange.peer_transports()) {
      over_mpi = over_mpi || peer.transport == Transport::mpi;
    }
    EXPECT_TRUE(over_mpi) << describe(exchange.peer_transports());
    expect_every_ghost_cell(run_grid_beside_host(exchange, verifier, fields),
                            "progress " + std::string(to_string(progress)));
    MPI_Barrier(MPI_COMM_WORLD);
  }
}

// Nodes of 2 ranks along x: each rank has a peer on its node, one over MPI (but the end ranks,
// x not periodic) and itself along y and z, all in one exchange started by the kernel.
TEST(EmbeddedWholeExchange, MixedNodesExchangeOverNodeMpiAndSelfFromTheKernel) {
  SKIP_UNLESS_HOST_BACKEND();
  if (world_size() < 4) GTEST_SKIP() << "two nodes of 2 ranks need 4 ranks";
  const haloflag::test::NodeSizeForTest nodes_of_two(2);
  GeometrySpec spec;
  spec.global_size = {4 * world_size(), 5, 5};
  spec.ranks = world_size();
  spec.divide = RankGrid{world_size(), 1, 1};
  spec.periodic = {false, true, true};
  spec.vars = 2;
  const Geometry geometry(spec);
  const ExchangeVerifier verifier(geometry, world_rank());
  TwoFields fields(verifier);
  Exchange exchange(geometry, fields.device[0].view(), embedded_options());
  bool node = false;
  bool self = false;
  for (const PeerTransport& peer : exchange.peer_transports()) {
    node = node || peer.transport == Transport::node;
    self = self || peer.transport == Transport::self;
  }
  EXPECT_TRUE(node && self) << describe(exchange.peer_transports());
  expect_every_ghost_cell(run_grid_beside_host(exchange, verifier, fields), "mixed nodes");
  // Then plans naming slots (map_fields), which the node peers are told and the MPI ones ignore.
  (void)exchange.map_fields(fields.device[1].view());
  const std::array<DevicePlan, 2> mapped{exchange.device_plan(fields.device[0].view()),
                                         exchange.device_plan(fields.device[1].view())};
  expect_every_ghost_cell(run_grid_beside_host(exchange, verifier, fields, mapped),
                          "mixed nodes, mapped plans");
  MPI_Barrier(MPI_COMM_WORLD);
}

}  // namespace
