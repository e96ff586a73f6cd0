// The per-strategy prediction on synthetic terms, every strategy on both transports computed by
// hand (docs/model.md, "Prediction per strategy"), measured against composed fixed costs, the
// GPU's bandwidth shared by its ranks, and the inputs it refuses.
#include <gtest/gtest.h>

#include <string>

#include "haloflag/model/errors.hpp"
#include "haloflag/model/strategy_prediction.hpp"

namespace {

using namespace haloflag::model;
namespace halo = haloflag::halo;
using halo::Strategy;

constexpr double us = 1e-6;

halo::Message message(int peer, int tag, std::int64_t bytes) {
  halo::Message m;
  m.peer = peer;
  m.tag = tag;
  m.bytes = bytes;
  return m;
}

// Two ranks on one socket, each sending the other 10000 B (tag 0) and 100 B (tag 1).
halo::ExchangeConfig two_ranks() {
  halo::ExchangeConfig config;
  config.ranks = 2;
  config.rank_messages.resize(2);
  for (int rank = 0; rank < 2; ++rank) {
    config.rank_messages[rank].sends = {message(1 - rank, 0, 10000), message(1 - rank, 1, 100)};
    config.rank_messages[rank].recvs = {message(1 - rank, 0, 10000), message(1 - rank, 1, 100)};
  }
  return config;
}

// Round numbers, so that every case below can be added up by hand.
MachineParams synthetic() {
  MachineParams params;
  params.eager_threshold_bytes = 1000;
  params.mapping = RankMapping::consecutive(2, 2);
  params.intra_socket = {{1 * us, 1e-9}, {2 * us, 1e-10}};  // eager, rendezvous
  params.inter_socket = ProtocolParams<KModelParams>::both({1 * us, 1e9, 1e9});
  params.inter_node = ProtocolParams<KModelParams>::both({1 * us, 1e9, 1e9});
  params.node_transport = NodeTransportParams{1 * us, 1e9, 0.5 * us};
  // bytes, pack, unpack, slowest pack, slowest unpack
  params.pack_unpack = PackUnpackTable({{100, 1 * us, 2 * us, 1.5 * us, 2.5 * us},
                                        {10000, 5 * us, 8 * us, 6 * us, 10 * us}});
  ScheduleParams schedule;
  schedule.launch_sync = 10 * us;
  schedule.graph_launch_sync = 6 * us;
  schedule.host_flag = 2 * us;
  schedule.fused = {{12 * us, 1e9}, {13 * us, 1e9}, {11 * us, 4e9}, {11 * us, 2e9}};
  params.schedule = schedule;
  return params;
}

double predicted_us(Strategy strategy, TransportChoice transport, int ranks_per_gpu = 2,
                    const MachineParams& params = synthetic()) {
  return predict_strategy(two_ranks(), params, *params.mapping, strategy, transport,
                          ranks_per_gpu)
             .seconds /
         us;
}

// Shared by every MPI case: one copy thread per rank copies its sends and its receives:
// 2 x (10000 B x 1e-10 s/B) + 2 x (100 B x 1e-9 s/B) = 2.2 us, plus the largest latency once
// (rendezvous, 2 us): 4.2 us. Two ranks share the GPU: 2 x 10100 B cross its link.
TEST(StrategyPrediction, BulkStrategiesOverMpiAddPackSyncMpiUnpack) {
  // fixed 2 launches of 10 us; pack (12 - 10) + 20200 B / 1e9 B/s = 22.2; unpack 3 + 20.2.
  EXPECT_NEAR(predicted_us(Strategy::comb_fused, TransportChoice::mpi), 20 + 22.2 + 4.2 + 23.2,
              1e-9);
  // Graph launches: 2 x 6 us.
  EXPECT_NEAR(predicted_us(Strategy::comb_graph, TransportChoice::mpi), 12 + 22.2 + 4.2 + 23.2,
              1e-9);
  // One block per message: the larger of the slowest block (6, 10 us) and the link (20.2 us).
  EXPECT_NEAR(predicted_us(Strategy::stream_base, TransportChoice::mpi), 20 + 20.2 + 4.2 + 20.2,
              1e-9);
}

TEST(StrategyPrediction, FlagStrategiesOverMpiPayFlagsInsteadOfSyncs) {
  // stream_notify, stacked_notify: one launch and three flag crossings, 10 + 3 x 2 us.
  EXPECT_NEAR(predicted_us(Strategy::stream_notify, TransportChoice::mpi), 16 + 20.2 + 4.2 + 20.2,
              1e-9);
  EXPECT_NEAR(predicted_us(Strategy::stacked_notify, TransportChoice::mpi), 16 + 20.2 + 4.2 + 20.2,
              1e-9);
  // resident: no launch, four flag crossings (the start too).
  EXPECT_NEAR(predicted_us(Strategy::resident, TransportChoice::mpi), 8 + 20.2 + 4.2 + 20.2, 1e-9);
}

TEST(StrategyPrediction, NodeTransportCopiesInsteadOfMpi) {
  // Fused into device memory: (11 - 10) + 20200 / 4e9 = 6.05; unpack (11 - 10) + 20200 / 2e9.
  EXPECT_NEAR(predicted_us(Strategy::comb_fused, TransportChoice::node), 20 + 6.05 + 11.1, 1e-9);
  EXPECT_NEAR(predicted_us(Strategy::comb_graph, TransportChoice::node), 12 + 6.05 + 11.1, 1e-9);
  // One block per message: the 10000 B pack is the node copy, 1 us + 10000 / 1e9 = 11 us (more
  // than its gather, 6 us); the unpack the larger of its block (10) and the link (10.1).
  EXPECT_NEAR(predicted_us(Strategy::stream_base, TransportChoice::node), 20 + 11 + 10.1, 1e-9);
  // The node grid without a measured term: the device pack of the busier direction's bytes,
  // (11 - 10) + 2 x 10100 / 4e9 = 6.05, and the counter's crossing, 0.5.
  EXPECT_NEAR(predicted_us(Strategy::stream_notify, TransportChoice::node), 16 + 6.55, 1e-9);
  EXPECT_NEAR(predicted_us(Strategy::resident, TransportChoice::node), 8 + 6.55, 1e-9);
  EXPECT_NEAR(predicted_us(Strategy::stacked_notify, TransportChoice::node), 16 + 6.55, 1e-9);
}

TEST(StrategyPrediction, MeasuredNodeGridTimesTheBusierDirection) {
  MachineParams params = synthetic();
  params.schedule->node_grid["resident"] = 2e9;
  // One rank sends 10100 B and receives 10100 B; both ranks share the GPU: 20200 / 2e9.
  const StrategyPrediction node = predict_strategy(two_ranks(), params, *params.mapping,
                                                   Strategy::resident, TransportChoice::node, 2);
  EXPECT_NEAR(node.seconds / us, 8 + 10.1, 1e-9);
  ASSERT_EQ(node.phases.size(), 2u);
  EXPECT_EQ(node.phases[1].name, "node pieces");
  for (const std::string& note : node.notes) {
    EXPECT_EQ(note.find("node grid"), std::string::npos) << note;
  }
  // A strategy without its own term is composed, and says so.
  const StrategyPrediction other = predict_strategy(
      two_ranks(), params, *params.mapping, Strategy::stream_notify, TransportChoice::node, 2);
  EXPECT_NEAR(other.seconds / us, 16 + 6.55, 1e-9);
  bool said = false;
  for (const std::string& note : other.notes) {
    said = said || note.find("node grid of stream_notify: not measured") != std::string::npos;
  }
  EXPECT_TRUE(said);
}

TEST(StrategyPrediction, MeasuredCopyThreadTimesMpiWithinANode) {
  // The bulk exchange's fit: 3 us + 1e-10 s per byte sent or received, 2 x 10100 B: 5.02 us.
  MachineParams params = synthetic();
  params.schedule->mpi_copy = PostalParams{3 * us, 1e-10};
  EXPECT_NEAR(predicted_us(Strategy::comb_fused, TransportChoice::mpi, 2, params),
              20 + 22.2 + 5.02 + 23.2, 1e-9);
}

TEST(StrategyPrediction, RanksSharingTheGpuShareItsBandwidth) {
  // Alone on the GPU the link carries 10100 B: pack 2 + 10.1, unpack 3 + 10.1.
  EXPECT_NEAR(predicted_us(Strategy::comb_fused, TransportChoice::mpi, 1), 20 + 12.1 + 4.2 + 13.1,
              1e-9);
  // Blocks bound by their slowest message again: 6 us and 10 us against 10.1 us of link.
  EXPECT_NEAR(predicted_us(Strategy::resident, TransportChoice::mpi, 1), 8 + 10.1 + 4.2 + 10.1,
              1e-9);
}

TEST(StrategyPrediction, MeasuredFixedCostReplacesTheComposedOne) {
  MachineParams params = synthetic();
  params.schedule->fixed["resident"] = FixedCost{30 * us, -1.0};
  const StrategyPrediction mpi = predict_strategy(two_ranks(), params, *params.mapping,
                                                  Strategy::resident, TransportChoice::mpi, 2);
  EXPECT_NEAR(mpi.seconds / us, 30 + 20.2 + 4.2 + 20.2, 1e-9);
  EXPECT_TRUE(mpi.fixed_measured);
  EXPECT_TRUE(mpi.notes.empty());
  ASSERT_EQ(mpi.phases.size(), 4u);
  EXPECT_EQ(mpi.phases[0], (PhaseTime{"fixed", 30 * us}));
  EXPECT_EQ(mpi.phases[2].name, "mpi");
  // Over the node transport this one was not measured: composed, and said so.
  const StrategyPrediction node = predict_strategy(two_ranks(), params, *params.mapping,
                                                   Strategy::resident, TransportChoice::node, 2);
  EXPECT_NEAR(node.seconds / us, 8 + 6.55, 1e-9);
  EXPECT_FALSE(node.fixed_measured);
  ASSERT_EQ(node.notes.size(), 2u);  // the fixed cost and the node grid, both composed
  EXPECT_NE(node.notes[0].find("resident over node: not measured"), std::string::npos)
      << node.notes[0];
  EXPECT_EQ(node.phases[1].name, "node pieces");
}

TEST(StrategyPrediction, PeersOffTheNodeTakeMpiBesideTheNodeTransport) {
  // One rank per node: the node transport has no peer to carry, every message takes MPI and
  // the K-model times it between nodes (N = 1: alpha 1 us + 10000 B / 1e9 B/s = 11 us).
  MachineParams params = synthetic();
  const StrategyPrediction prediction =
      predict_strategy(two_ranks(), params, RankMapping::consecutive(1, 1), Strategy::comb_fused,
                       TransportChoice::automatic, 2);
  EXPECT_FALSE(prediction.phases.empty());
  EXPECT_NEAR(prediction.phases[2].seconds / us, 11, 1e-9);
  EXPECT_NEAR(prediction.seconds / us, 20 + 22.2 + 11 + 23.2, 1e-9);
}

TEST(StrategyPrediction, RefusesWhatItCannotPredict) {
  MachineParams without = synthetic();
  without.schedule.reset();
  try {
    predict_strategy(two_ranks(), without, *without.mapping, Strategy::comb_fused,
                     TransportChoice::mpi, 1);
    FAIL() << "predicted without schedule terms";
  } catch (const ModelError& error) {
    EXPECT_NE(std::string(error.what()).find("schedule: missing"), std::string::npos)
        << error.what();
  }
  const MachineParams params = synthetic();
  EXPECT_THROW(predict_strategy(two_ranks(), params, *params.mapping, Strategy::embedded,
                                TransportChoice::mpi, 1),
               ModelError);
  // nccl's transfers are NCCL's: the model says so instead of a number.
  try {
    predict_strategy(two_ranks(), params, *params.mapping, Strategy::nccl, TransportChoice::mpi, 1);
    FAIL() << "predicted nccl";
  } catch (const ModelError& error) {
    EXPECT_EQ(std::string(error.what()), unmodelled_reason(Strategy::nccl));
    EXPECT_NE(std::string(error.what()).find("no bound and no prediction"), std::string::npos);
  }
  for (const Strategy strategy : halo::all_strategies()) {
    EXPECT_EQ(unmodelled_reason(strategy), "") << halo::to_string(strategy);
  }
  EXPECT_THROW(predict_strategy(two_ranks(), params, *params.mapping, Strategy::comb_fused,
                                TransportChoice::mpi, 0),
               ModelError);
  MachineParams no_node = synthetic();
  no_node.node_transport.reset();
  EXPECT_THROW(predict_strategy(two_ranks(), no_node, *no_node.mapping, Strategy::resident,
                                TransportChoice::node, 1),
               ModelError);
  // Three ranks do not fit one node of two.
  halo::ExchangeConfig three = two_ranks();
  three.ranks = 3;
  three.rank_messages.resize(3);
  EXPECT_THROW(predict_strategy(three, params, RankMapping::consecutive(2, 2, 1),
                                Strategy::comb_fused, TransportChoice::mpi, 1),
               ModelError);
}

}  // namespace
