// The self transport (docs/transports.md, "self"): a rank's messages to itself on a periodic
// axis of one rank. Every strategy with every transport it accepts, every ghost cell verified:
// alone (a communicator of one rank, all 26 messages to itself), and beside node and MPI peers
// (a rank grid of ranks x 1 x 1, nodes of two ranks). Transport mpi carries them as any peer's,
// and self is no transport to ask for.
#include <gtest/gtest.h>
#include <mpi.h>

#include <chrono>
#include <stdexcept>
#include <string>

#include "exchange_failure.hpp"
#include "haloflag/halo/config_from_geometry.hpp"
#include "haloflag/halo/device_fields.hpp"
#include "haloflag/halo/errors.hpp"
#include "haloflag/halo/exchange.hpp"
#include "haloflag/halo/exchange_verifier.hpp"
#include "haloflag/halo/host_field.hpp"
#include "mpi_world.hpp"
#include "test_backend.hpp"
#include "test_transport.hpp"
#include "verified_runs.hpp"

namespace {

using namespace haloflag::halo;
using haloflag::test::contains;
using haloflag::test::run_verified;
using haloflag::test::test_backend;
using haloflag::test::world_rank;
using haloflag::test::world_size;

// `ranks` along x, one along y and z, every axis periodic: each rank is its own neighbour along
// y and z (and along x too when alone).
Geometry slab(int ranks) {
  GeometrySpec spec;
  spec.global_size = {5 * ranks, 6, 7};
  spec.ranks = ranks;
  spec.divide = RankGrid{ranks, 1, 1};
  spec.periodic = {true, true, true};
  spec.vars = 2;
  return Geometry(spec);
}

ExchangeOptions options_for(Strategy strategy, Transport transport, MPI_Comm comm) {
  ExchangeOptions options;
  options.strategy = strategy;
  options.backend = test_backend();
  options.timeout = std::chrono::seconds(20);
  options.transport = transport;
  options.comm = comm;
  return options;
}

// How the exchange reaches `peer`; fails the test when the peer is not listed.
Transport transport_of(const Exchange& exchange, int peer) {
  for (const PeerTransport& listed : exchange.peer_transports()) {
    if (listed.peer == peer) return listed.transport;
  }
  ADD_FAILURE() << "peer " << peer << " is not listed: " << describe(exchange.peer_transports());
  return Transport::automatic;
}

TEST(SelfTransport, ARankAloneExchangesWithItselfWithEveryStrategy) {
  SKIP_WITHOUT_BACKEND();
  const Geometry geometry = slab(1);
  const ExchangeVerifier verifier(geometry, 0);
  for (const Strategy strategy : all_strategies()) {
    for (const Transport transport : {Transport::automatic, Transport::node}) {
      DeviceFields fields(test_backend(), verifier.field_extent(), verifier.vars());
      Exchange exchange(geometry, fields.view(), options_for(strategy, transport, MPI_COMM_SELF));
      ASSERT_EQ(exchange.peer_transports().size(), 1u) << describe(exchange.peer_transports());
      EXPECT_EQ(transport_of(exchange, 0), Transport::self);
      EXPECT_EQ(run_verified(exchange, fields, verifier, 5), "")
          << to_string(strategy) << " with transport " << to_string(transport) << ", rank "
          << world_rank();
    }
  }
}

// Nodes of two ranks: at 4 and 8 ranks each rank has one x neighbour on its node and one off
// it, and is its own neighbour along y and z; at 2 ranks both x neighbours are the node peer.
TEST(SelfTransport, BesideNodeAndMpiPeersEveryStrategyStaysCorrect) {
  SKIP_WITHOUT_BACKEND();
  const haloflag::test::NodeSizeForTest nodes_of_two(2);
  const Geometry geometry = slab(world_size());
  const ExchangeVerifier verifier(geometry, world_rank());
  const int rank = world_rank();
  for (const Strategy strategy : all_strategies()) {
    DeviceFields fields(test_backend(), verifier.field_extent(), verifier.vars());
    Exchange exchange(geometry, fields.view(),
                      options_for(strategy, Transport::automatic, MPI_COMM_WORLD));
    EXPECT_EQ(transport_of(exchange, rank), Transport::self);
    if (world_size() >= 2) {
      EXPECT_EQ(transport_of(exchange, rank ^ 1), Transport::node);
    }
    if (world_size() >= 4) {
      const int off_node = rank % 2 == 0 ? (rank + world_size() - 1) % world_size()
                                         : (rank + 1) % world_size();
      EXPECT_EQ(transport_of(exchange, off_node), Transport::mpi);
    }
    EXPECT_EQ(run_verified(exchange, fields, verifier, 6), "")
        << to_string(strategy) << ", rank " << rank << ": "
        << describe(exchange.peer_transports());
  }
}

TEST(SelfTransport, TransportMpiCarriesARanksMessagesToItselfOverMpi) {
  SKIP_WITHOUT_BACKEND();
  const Geometry geometry = slab(world_size());
  const ExchangeVerifier verifier(geometry, world_rank());
  for (const Strategy strategy : {Strategy::comb_fused, Strategy::resident}) {
    DeviceFields fields(test_backend(), verifier.field_extent(), verifier.vars());
    Exchange exchange(geometry, fields.view(),
                      options_for(strategy, Transport::mpi, MPI_COMM_WORLD));
    EXPECT_EQ(transport_of(exchange, world_rank()), Transport::mpi);
    EXPECT_EQ(run_verified(exchange, fields, verifier, 4), "") << to_string(strategy);
  }
}

// A rank whose send to itself has no receive of its tag (a stale config) fails at set-up,
// before any exchange, naming the message: the peer handshake finds it first, as for any peer
// (the self transport pairs the messages again, and would refuse them too).
TEST(SelfTransport, ASendToItselfWithoutItsReceiveFailsAtSetUpNamingTheTag) {
  SKIP_WITHOUT_BACKEND();
  ExchangeConfig config = make_exchange_config(slab(world_size()));
  RankMessages& mine = config.rank_messages.at(static_cast<std::size_t>(world_rank()));
  for (Message& send : mine.sends) {
    if (send.peer != world_rank()) continue;
    send.tag = 9999;
    break;
  }
  DeviceFields fields(test_backend(), mine.field_extent.value(), config.data.value().vars);
  std::string message;
  try {
    Exchange exchange(config, fields.view(),
                      options_for(Strategy::stream_notify, Transport::automatic, MPI_COMM_WORLD));
  } catch (const ExchangeError& error) {
    message = error.what();
  }
  EXPECT_TRUE(contains(message, "rank " + std::to_string(world_rank()))) << message;
  EXPECT_TRUE(contains(message, "9999")) << message;
}

TEST(SelfTransport, IsNotATransportToAskFor) {
  SKIP_WITHOUT_BACKEND();
  EXPECT_EQ(to_string(Transport::self), "self");
  EXPECT_THROW((void)parse_transport("self"), std::invalid_argument);
  const Geometry geometry = slab(world_size());
  const ExchangeVerifier verifier(geometry, world_rank());
  DeviceFields fields(test_backend(), verifier.field_extent(), verifier.vars());
  std::string message;
  try {
    Exchange exchange(geometry, fields.view(),
                      options_for(Strategy::resident, Transport::self, MPI_COMM_WORLD));
  } catch (const ExchangeError& error) {
    message = error.what();
    EXPECT_EQ(error.kind(), haloflag::ErrorKind::config) << message;
  }
  EXPECT_TRUE(contains(message, "transport self is not a choice")) << message;
}

}  // namespace
