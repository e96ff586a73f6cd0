// The transport of each peer (ExchangeOptions::transport, HALOFLAG_NODE_SIZE): how peers are sorted into
// node and mpi ones, that one exchange mixes both and stays correct, and that choices which
// cannot be kept fail on every rank, before any exchange, naming the peer. The strategies test
// verifies every strategy over each transport; this one checks the choice itself.
#include <gtest/gtest.h>
#include <mpi.h>

#include <chrono>
#include <string>

#include "exchange_failure.hpp"
#include "haloflag/halo/device_fields.hpp"
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

Geometry periodic_cube() {
  GeometrySpec spec;
  spec.global_size = {12, 12, 12};
  spec.ranks = world_size();
  spec.periodic = {true, true, true};
  spec.vars = 2;
  return Geometry(spec);
}

ExchangeOptions options_for(Strategy strategy, Transport transport) {
  ExchangeOptions options;
  options.strategy = strategy;
  options.backend = test_backend();
  options.timeout = std::chrono::seconds(20);
  options.transport = transport;
  return options;
}

// One host, split into nodes of 2 ranks: peers of the same pair are node peers, the others mpi,
// and every strategy's exchange is correct with both in it.
TEST(NodeTransport, NodesOfTwoRanksMixBothTransportsInOneExchange) {
  SKIP_WITHOUT_BACKEND();
  const Geometry geometry = periodic_cube();
  const ExchangeVerifier verifier(geometry, world_rank());
  const haloflag::test::NodeSizeForTest nodes_of_two(2);
  for (Strategy strategy : all_strategies()) {
    DeviceFields fields(test_backend(), verifier.field_extent(), verifier.vars());
    Exchange exchange(geometry, fields.view(), options_for(strategy, Transport::automatic));
    bool node_peer = false;
    for (const PeerTransport& peer : exchange.peer_transports()) {
      // The rank itself is the self transport's (self_transport_mpi_test.cpp).
      if (peer.peer == world_rank()) {
        EXPECT_EQ(peer.transport, Transport::self);
        continue;
      }
      const bool same_node = peer.peer / 2 == world_rank() / 2;
      EXPECT_EQ(peer.transport, same_node ? Transport::node : Transport::mpi)
          << "rank " << world_rank() << ", peer " << peer.peer;
      if (same_node) {
        node_peer = true;
        EXPECT_FALSE(peer.path.empty());
      }
    }
    if (world_size() > 1) {
      EXPECT_TRUE(node_peer) << "rank " << world_rank() << " has no peer on its node";
    }
    EXPECT_EQ(run_verified(exchange, fields, verifier, 6), "")
        << to_string(strategy) << ", rank " << world_rank() << ": " << describe(exchange.peer_transports());
  }
}

// transport mpi: no peer is a node peer, even on one host.
TEST(NodeTransport, TransportMpiKeepsEveryPeerOnMpi) {
  SKIP_WITHOUT_BACKEND();
  const Geometry geometry = periodic_cube();
  const ExchangeVerifier verifier(geometry, world_rank());
  DeviceFields fields(test_backend(), verifier.field_extent(), verifier.vars());
  Exchange exchange(geometry, fields.view(),
                    options_for(Strategy::resident, Transport::mpi));
  for (const PeerTransport& peer : exchange.peer_transports()) {
    EXPECT_EQ(peer.transport, Transport::mpi) << "peer " << peer.peer;
  }
  EXPECT_EQ(run_verified(exchange, fields, verifier, 4), "");
}

// transport node with a peer on another "node": every rank fails at set-up, naming the peer.
TEST(NodeTransport, TransportNodeNamesAPeerOffTheNode) {
  SKIP_WITHOUT_BACKEND();
  if (world_size() < 4) GTEST_SKIP() << "needs two nodes of two ranks";
  const Geometry geometry = periodic_cube();
  const ExchangeVerifier verifier(geometry, world_rank());
  DeviceFields fields(test_backend(), verifier.field_extent(), verifier.vars());
  std::string message;
  const haloflag::test::NodeSizeForTest nodes_of_two(2);
  try {
    Exchange exchange(geometry, fields.view(), options_for(Strategy::resident, Transport::node));
  } catch (const ExchangeError& error) {
    message = error.what();
  }
  ASSERT_FALSE(message.empty()) << "rank " << world_rank() << " built the exchange";
  EXPECT_TRUE(contains(message, "rank " + std::to_string(world_rank()) + ":")) << message;
  EXPECT_TRUE(contains(message, "is not on this rank's node")) << message;
}

// Two peers of one node that choose differently for each other (one mpi, one auto) both fail
// at set-up; the ranks that see it name the transport each side chose.
TEST(NodeTransport, PeersThatChooseDifferentTransportsFailAtSetUp) {
  SKIP_WITHOUT_BACKEND();
  if (world_size() < 2) GTEST_SKIP() << "needs a peer";
  const Geometry geometry = periodic_cube();
  const ExchangeVerifier verifier(geometry, world_rank());
  DeviceFields fields(test_backend(), verifier.field_extent(), verifier.vars());
  const Transport mine = world_rank() == 0 ? Transport::mpi : Transport::automatic;
  std::string message;
  try {
    Exchange exchange(geometry, fields.view(), options_for(Strategy::stream_notify, mine));
  } catch (const ExchangeError& error) {
    message = error.what();
  }
  ASSERT_FALSE(message.empty()) << "rank " << world_rank() << " built the exchange";
  if (world_rank() == 0) {
    EXPECT_TRUE(contains(message, "peers disagree on the transport")) << message;
    EXPECT_TRUE(contains(message, "over mpi, peer 1 over node")) << message;
  }
}

// A rank that is its own neighbour (one rank along an axis) is not a node peer of itself, even
// with transport node: the self transport carries those messages (self_transport_mpi_test.cpp).
TEST(NodeTransport, ARankThatIsItsOwnNeighbourIsLeftToTheSelfTransport) {
  SKIP_WITHOUT_BACKEND();
  GeometrySpec spec;
  spec.global_size = {8, 6, 6};
  spec.ranks = world_size();
  spec.divide = RankGrid{world_size(), 1, 1};
  spec.periodic = {true, true, true};
  const Geometry geometry(spec);
  const ExchangeVerifier verifier(geometry, world_rank());
  for (Strategy strategy : {Strategy::comb_fused, Strategy::stacked_notify, Strategy::resident}) {
    DeviceFields fields(test_backend(), verifier.field_extent(), verifier.vars());
    Exchange exchange(geometry, fields.view(), options_for(strategy, Transport::node));
    bool self = false;
    for (const PeerTransport& peer : exchange.peer_transports()) {
      if (peer.peer != world_rank()) continue;
      self = true;
      EXPECT_EQ(peer.transport, Transport::self) << describe(exchange.peer_transports());
    }
    EXPECT_TRUE(self);
    EXPECT_EQ(run_verified(exchange, fields, verifier, 5), "") << to_string(strategy);
  }
}

}  // namespace
