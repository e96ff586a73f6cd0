// Strategy::nccl. In every build: the strategy is named and parsed like the others but listed
// apart (all_strategies() stays what every build runs), and where it cannot run, here the host
// backend, every rank's Exchange fails at set-up with an ExchangeError naming the reason.
//
// With HALOFLAG_TEST_BACKEND=cuda|hip in a build with NCCL (RCCL), one rank per GPU (NCCL takes
// no shared GPU): every geometry of geometry_cases.hpp, exchanges with every cell of the field
// checked after each; the node transport refused; and a peer that stops answering: the
// survivor's exchange ends within the deadline with an ExchangeError naming NCCL and the peer.
// Without a GPU, NCCL or a GPU per rank these cases skip, saying why.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <string>

#include "exchange_failure.hpp"
#include "geometry_cases.hpp"
#include "haloflag/halo/device_fields.hpp"
#include "haloflag/halo/exchange.hpp"
#include "haloflag/halo/exchange_verifier.hpp"
#include "haloflag/halo/nccl_library.hpp"
#include "mpi_world.hpp"
#include "test_backend.hpp"

namespace {

using namespace haloflag::halo;
using haloflag::notify::Backend;
using haloflag::test::contains;
using haloflag::test::failure_of;
using haloflag::test::test_backend;
using haloflag::test::world_rank;
using haloflag::test::world_size;

constexpr int kExchanges = 4;

// Ranks of this rank's node: NCCL needs a GPU for each.
int ranks_on_this_node() {
  MPI_Comm node = MPI_COMM_NULL;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int size = 1;
  MPI_Comm_size(node, &size);
  MPI_Comm_free(&node);
  return size;
}

// Why the GPU cases cannot run here, "" when they can; the same on every rank of a node.
std::string why_no_nccl_run() {
  if (!haloflag::test::backend_unavailable().empty()) return haloflag::test::backend_unavailable();
  const std::string unavailable = strategy_unavailable(Strategy::nccl, test_backend());
  if (!unavailable.empty()) return unavailable;
  const int gpus = haloflag::notify::gpu_device_count();
  const int ranks = ranks_on_this_node();
  if (gpus < ranks) {
    return std::to_string(ranks) + " ranks on this node and " + std::to_string(gpus) +
           " GPU(s): NCCL takes one GPU per rank";
  }
  return {};
}

#define SKIP_WITHOUT_NCCL_RUN()                                  \
  do {                                                           \
    if (const std::string why = why_no_nccl_run(); !why.empty()) { \
      GTEST_SKIP() << why;                                       \
    }                                                            \
  } while (0)

ExchangeOptions nccl_options(std::chrono::nanoseconds timeout = std::chrono::seconds(20)) {
  ExchangeOptions options;
  options.strategy = Strategy::nccl;
  options.backend = test_backend();
  options.timeout = timeout;
  return options;
}

TEST(NcclStrategy, NamedAndParsedLikeTheOthersButListedApart) {
  EXPECT_EQ(to_string(Strategy::nccl), "nccl");
  EXPECT_EQ(parse_strategy("nccl"), Strategy::nccl);
  EXPECT_FALSE(uses_flags(Strategy::nccl));
  const auto all = all_strategies();
  EXPECT_EQ(std::find(all.begin(), all.end(), Strategy::nccl), all.end());
  for (const Strategy strategy : all) {
    EXPECT_EQ(strategy_unavailable(strategy, Backend::host), "") << to_string(strategy);
  }
  // NCCL moves device memory: never on the host backend, whatever the build.
  const std::string on_host = strategy_unavailable(Strategy::nccl, Backend::host);
  EXPECT_FALSE(on_host.empty());
  const std::vector<Strategy> host = available_strategies(Backend::host);
  EXPECT_EQ(host, std::vector<Strategy>(all.begin(), all.end()));
  const NcclLibrary library = nccl_library();
  if (library.built) {
    EXPECT_TRUE(contains(on_host, "GPU backend")) << on_host;
    EXPECT_FALSE(library.runtime_version.empty());
  } else {
    EXPECT_TRUE(contains(on_host, "not in this build")) << on_host;
    EXPECT_TRUE(contains(on_host, library.note)) << on_host;
  }
}

// Every rank fails at set-up, its own error naming why, so none is left waiting for a peer.
TEST(NcclStrategy, WhereItCannotRunEveryRankFailsWithTheReason) {
  const Geometry geometry = haloflag::test::make_geometry(haloflag::test::geometry_cases()[0]);
  DeviceFields fields(Backend::host, ExchangeVerifier(geometry, world_rank()).field_extent(),
                      geometry.spec().vars);
  ExchangeOptions options = nccl_options();
  options.backend = Backend::host;
  const auto failure = failure_of([&] { Exchange exchange(geometry, fields.view(), options); });
  ASSERT_TRUE(failure.thrown);
  EXPECT_TRUE(contains(failure.message, strategy_unavailable(Strategy::nccl, Backend::host)))
      << failure.message;
  EXPECT_TRUE(contains(failure.message, "rank " + std::to_string(world_rank()))) << failure.message;
}

// The nccl transport has no device route: every strategy whose kernels place and signal each
// message is refused with it at set-up, on every rank, naming the strategy and why; in every
// build and on every backend, as the pairing is checked before anything else.
TEST(NcclTransport, StrategiesThatNeedADeviceRouteAreRefusedOnEveryRank) {
  const Geometry geometry = haloflag::test::make_geometry(haloflag::test::geometry_cases()[0]);
  DeviceFields fields(test_backend(), ExchangeVerifier(geometry, world_rank()).field_extent(),
                      geometry.spec().vars);
  EXPECT_EQ(parse_transport("nccl"), Transport::nccl);
  EXPECT_EQ(to_string(Transport::nccl), "nccl");
  for (const Strategy strategy : all_strategies()) {
    ExchangeOptions options = nccl_options();
    options.strategy = strategy;
    options.transport = Transport::nccl;
    const auto failure = failure_of([&] { Exchange exchange(geometry, fields.view(), options); });
    ASSERT_TRUE(failure.thrown) << to_string(strategy);
    EXPECT_EQ(failure.kind, haloflag::ErrorKind::config) << failure.message;
    EXPECT_TRUE(contains(failure.message, "strategy " + std::string(to_string(strategy)) +
                                              " needs a device route to every peer"))
        << failure.message;
    EXPECT_TRUE(contains(failure.message, "transport nccl has none")) << failure.message;
    EXPECT_TRUE(contains(failure.message, "rank " + std::to_string(world_rank())))
        << failure.message;
  }
}

TEST(NcclTransport, PeersAreDescribedAsNccl) {
  const std::vector<PeerTransport> peers = {
      {1, Transport::nccl, "NCCL"}, {2, Transport::node, "device (IPC)"}, {3, Transport::mpi, "mpi"}};
  EXPECT_EQ(describe(peers), "node: 2 (device (IPC)); mpi: 3; nccl: 1");
}

class NcclExchange : public testing::TestWithParam<haloflag::test::GeometryCase> {};

TEST_P(NcclExchange, EveryCellIsRightAfterEachExchange) {
  SKIP_WITHOUT_NCCL_RUN();
  const Geometry geometry = haloflag::test::make_geometry(GetParam());
  const ExchangeVerifier verifier(geometry, world_rank());
  DeviceFields fields(test_backend(), verifier.field_extent(), verifier.vars());
  HostField host(verifier.field_extent(), verifier.vars());
  Exchange exchange(geometry, fields.view(), nccl_options());
  for (const PeerTransport& peer : exchange.peer_transports()) EXPECT_EQ(peer.path, "NCCL");
  for (int i = 0; i < kExchanges; ++i) {
    const std::uint64_t epoch = exchange.epoch() + 1;
    verifier.fill(host, epoch);
    fields.upload(host);
    exchange.run();
    fields.download(host);
    EXPECT_EQ(verifier.check_all(host, epoch), "")
        << GetParam().name << ", exchange " << epoch << " on rank " << world_rank();
  }
}

INSTANTIATE_TEST_SUITE_P(Geometries, NcclExchange,
                         testing::ValuesIn(haloflag::test::geometry_cases()),
                         [](const auto& test) { return test.param.name; });

TEST(NcclExchangeSetUp, TheNodeTransportIsRefused) {
  SKIP_WITHOUT_NCCL_RUN();
  const Geometry geometry = haloflag::test::make_geometry(haloflag::test::geometry_cases()[0]);
  DeviceFields fields(test_backend(), ExchangeVerifier(geometry, world_rank()).field_extent(),
                      geometry.spec().vars);
  ExchangeOptions options = nccl_options();
  options.transport = Transport::node;
  const auto failure = failure_of([&] { Exchange exchange(geometry, fields.view(), options); });
  ASSERT_TRUE(failure.thrown);
  EXPECT_TRUE(contains(failure.message, "transport node does not apply")) << failure.message;
}

// Rank 1 stops after the first exchange. NCCL's own wait for it has no end; the Exchange's
// deadline ends rank 0's, naming NCCL and peer 1, and aborts the communicator so that its
// stream drains and the Exchange can be destroyed.
TEST(NcclExchangeFault, AStoppedPeerEndsTheSurvivorsExchangeWithinTheDeadline) {
  SKIP_WITHOUT_NCCL_RUN();
  if (world_size() != 2) GTEST_SKIP() << "a survivor and a stopped peer: 2 ranks";
  constexpr auto kTimeout = std::chrono::seconds(3);
  const Geometry geometry = haloflag::test::make_geometry(haloflag::test::geometry_cases()[0]);
  const ExchangeVerifier verifier(geometry, world_rank());
  DeviceFields fields(test_backend(), verifier.field_extent(), verifier.vars());
  {
    Exchange exchange(geometry, fields.view(), nccl_options(kTimeout));
    exchange.run();  // connects the peers: the next exchange waits only for the transfer
    if (world_rank() == 0) {
      const auto failure = failure_of([&] { exchange.run(); });
      ASSERT_TRUE(failure.thrown) << "the exchange finished without its peer";
      EXPECT_TRUE(contains(failure.message, "NCCL")) << failure.message;
      EXPECT_TRUE(contains(failure.message, "peer 1")) << failure.message;
      EXPECT_TRUE(contains(failure.message, "rank 0, exchange 2")) << failure.message;
      const double deadline = std::chrono::duration<double>(kTimeout).count();
      EXPECT_GE(failure.seconds, deadline * 0.9) << failure.message;
      EXPECT_LT(failure.seconds, deadline + 2.0) << failure.message;
      // The failed Exchange stays failed.
      EXPECT_TRUE(failure_of([&] { exchange.start(); }).thrown);
    }
    // Rank 1 waits here, not in an exchange, until rank 0 has seen its error.
    MPI_Barrier(MPI_COMM_WORLD);
  }  // both Exchanges go: rank 0's communicator aborted, rank 1's flushed or aborted in time
  MPI_Barrier(MPI_COMM_WORLD);
}

}  // namespace
