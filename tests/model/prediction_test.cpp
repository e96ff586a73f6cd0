// The lower bound SP + max T_comm + LUP on the shipped configs with the Power9+V100 file, the
// K-model counts it derives from the mapping, configs that do not fit the mapping, and the bound
// with the node transport for messages within a node.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>

#include "haloflag/halo/config_file.hpp"
#include "haloflag/model/errors.hpp"
#include "haloflag/model/params_file.hpp"
#include "haloflag/model/prediction.hpp"

#ifndef HALOFLAG_COMB_CONFIG_DIR
#error "HALOFLAG_COMB_CONFIG_DIR must name comb_configs"
#endif
#ifndef HALOFLAG_MODEL_PARAMS_DIR
#error "HALOFLAG_MODEL_PARAMS_DIR must name model/params"
#endif

namespace {

using namespace haloflag::model;
namespace halo = haloflag::halo;
namespace fs = std::filesystem;

const fs::path kConfigs = HALOFLAG_COMB_CONFIG_DIR;
const fs::path kPower9 = fs::path(HALOFLAG_MODEL_PARAMS_DIR) / "power9_v100.json";

struct Fixture {
  MachineParams params = read_params_file(kPower9);
  RankMapping mapping = *params.mapping;
};

ExchangePrediction predict(const std::string& config_name) {
  const Fixture f;
  return predict_exchange(halo::read_config_file(kConfigs / config_name), f.params, f.mapping);
}

int count_class(const RankPrediction& rank, MessageClass message_class) {
  int count = 0;
  for (const MessagePrediction& m : rank.sends) count += m.time.message_class == message_class;
  return count;
}

// The 64-rank configs: a 4x4x4 rank grid, x fastest (rank = x + 4y + 16z), periodic on every
// axis, 26 neighbours. With 4 consecutive ranks per node, a node holds one x-row (y, z fixed).
// Since the row is periodic and 4 long, a rank's -x and +x neighbours are the other ends of its
// own row, so exactly 2 of its 26 messages stay on the node: K_inter = 24, K_total = 26, for
// every rank (all are "interior" on a periodic grid). All 4 ranks of a node send, so k' = 4.
// With 2 ranks per socket (x = 0,1 | x = 2,3), one of the two on-node messages stays on the
// socket and the other crosses sockets (rank 0: +x is rank 1, same socket; -x is rank 3,
// other socket). The inter-socket message is not counted in K_inter: it does not leave the node.
TEST(Prediction, SixtyFourRankCountsMatchThePaper) {
  for (const char* name : {"comb_200_np64.cfg", "comb_400_np64.cfg", "comb_800_np64.cfg"}) {
    SCOPED_TRACE(name);
    const ExchangePrediction prediction = predict(name);
    ASSERT_EQ(prediction.ranks.size(), 64u);
    for (const RankPrediction& rank : prediction.ranks) {
      SCOPED_TRACE("rank " + std::to_string(rank.rank));
      EXPECT_EQ(rank.counts.k_inter, 24);
      EXPECT_EQ(rank.counts.k_total, 26);
      EXPECT_EQ(rank.counts.k_prime, 4);
      EXPECT_EQ(count_class(rank, MessageClass::inter_node), 24);
      EXPECT_EQ(count_class(rank, MessageClass::inter_socket), 1);
      EXPECT_EQ(count_class(rank, MessageClass::intra_socket), 1);
    }
    // Rank 0 sits at x = 0: its +x neighbour (tag 13) is rank 1, its -x neighbour (tag 12) rank 3.
    const RankPrediction& rank0 = prediction.ranks[0];
    EXPECT_EQ(rank0.sends[13].peer, 1);
    EXPECT_EQ(rank0.sends[13].time.message_class, MessageClass::intra_socket);
    EXPECT_EQ(rank0.sends[12].peer, 3);
    EXPECT_EQ(rank0.sends[12].time.message_class, MessageClass::inter_socket);
  }
}

// Hand-computed bounds (N = 48/13, times from message_time_test.cpp):
//  200^3: faces 60000 B (eager). Inter-node 2.224813e-5, inter-socket 1.146639e-5, intra-socket
//         5.014e-6 -> T_comm = 22.24813 us. SP = pack(24) = 1.75, LUP = unpack(60000) = 12.00.
//         Bound = 1.75 + 22.24813 + 12.00 = 35.99813 us.
//  400^3: faces 240000 B (rendezvous). Inter-node 2.200933e-5, inter-socket 3.563558e-5 ->
//         T_comm = 35.63558 us (the inter-socket face: R_Cb 8.41e9 < 1.79e10). Edges 2400 B
//         eager inter-node 3.155525 us. LUP = unpack(240000) = 30.40.
//         Bound = 1.75 + 35.63558 + 30.40 = 67.78558 us.
//  800^3: faces 960000 B: inter-node 5.623732e-5, inter-socket 3.41e-6 + 3.5454545e6 *
//         3.636567e-11 = 1.3231232e-4 -> T_comm = 132.31232 us. LUP = unpack(960000) = 105.
//         Bound = 1.75 + 132.31232 + 105 = 239.06232 us.
TEST(Prediction, SixtyFourRankBoundsByHand) {
  const double expected_us[] = {35.99813, 67.78558, 239.06232};
  const char* names[] = {"comb_200_np64.cfg", "comb_400_np64.cfg", "comb_800_np64.cfg"};
  double previous = 0.0;
  for (int i = 0; i < 3; ++i) {
    const ExchangePrediction prediction = predict(names[i]);
    const double bound_us = prediction.bound * 1e6;
    std::printf("[ model    ] %s with power9_v100.json: lower bound %.3f us (rank %d: SP %.3f + "
                "T_comm %.3f + LUP %.3f)\n",
                names[i], bound_us, prediction.critical_rank,
                prediction.critical().sp.seconds * 1e6, prediction.critical().t_comm * 1e6,
                prediction.critical().lup.seconds * 1e6);
    EXPECT_TRUE(std::isfinite(bound_us));
    EXPECT_GT(bound_us, 0.0);
    EXPECT_GT(bound_us, previous) << "bound must grow with the cube size";
    EXPECT_NEAR(bound_us, expected_us[i], 1e-4 * expected_us[i]) << names[i];
    EXPECT_TRUE(prediction.notes.empty());  // every SP and LUP size is in Table 3
    // Every rank has the same pattern, so every rank has the same bound.
    for (const RankPrediction& rank : prediction.ranks) {
      EXPECT_NEAR(rank.bound, prediction.bound, 1e-15);
    }
    previous = bound_us;
  }
}

TEST(Prediction, SixtyFourRankBreakdownOfRankZero) {
  const ExchangePrediction prediction = predict("comb_200_np64.cfg");
  const RankPrediction& r = prediction.ranks[0];
  EXPECT_EQ(r.shortest_send_bytes, 24);
  EXPECT_EQ(r.longest_recv_bytes, 60000);
  EXPECT_NEAR(r.sp.seconds, 1.75e-6, 1e-15);
  EXPECT_NEAR(r.lup.seconds, 12.0e-6, 1e-15);
  ASSERT_GE(r.slowest_send, 0);
  const MessagePrediction& slowest = r.sends[static_cast<std::size_t>(r.slowest_send)];
  EXPECT_EQ(slowest.bytes, 60000);
  EXPECT_EQ(slowest.time.message_class, MessageClass::inter_node);
  EXPECT_EQ(slowest.time.protocol, Protocol::eager);
  EXPECT_NEAR(slowest.time.seconds, 2.224813e-5, 1e-10);
  // The 24-byte corner to rank 63: inter-node eager, 2.36e-6 + 48/13 * 24 * 8.977281e-11 s.
  EXPECT_EQ(r.sends[0].peer, 63);
  EXPECT_NEAR(r.sends[0].time.seconds, 2.36e-6 + 48.0 / 13.0 * 24 * 8.977281e-11, 1e-12);
}

// The two-rank reductions: both ranks on one socket of one node, so all 26 messages are
// intra-socket (Eq. 2) and the largest face dominates.
//  200: 1.75 + (2.92 + 0.0349 * 60) + 12.00  = 1.75 + 5.014  + 12.00 = 18.764 us
//  400: 1.75 + (2.92 + 0.0349 * 240) + 30.40 = 1.75 + 11.296 + 30.40 = 43.446 us
//  800: 1.75 + (2.92 + 0.0349 * 960) + 105   = 1.75 + 36.424 + 105   = 143.174 us
TEST(Prediction, TwoRankReductionsByHand) {
  const double expected_us[] = {18.764, 43.446, 143.174};
  const char* names[] = {"comb_200_np2_reduced.cfg", "comb_400_np2_reduced.cfg",
                         "comb_800_np2_reduced.cfg"};
  for (int i = 0; i < 3; ++i) {
    const ExchangePrediction prediction = predict(names[i]);
    std::printf("[ model    ] %s with power9_v100.json: lower bound %.3f us\n", names[i],
                prediction.bound * 1e6);
    EXPECT_NEAR(prediction.bound * 1e6, expected_us[i], 1e-6);
    for (const RankPrediction& rank : prediction.ranks) {
      EXPECT_EQ(count_class(rank, MessageClass::intra_socket), 26);
      EXPECT_EQ(rank.counts.k_inter, 0);
      EXPECT_EQ(rank.counts.k_prime, 2);
    }
  }
}

TEST(Prediction, ConfigsThatDoNotFitTheMappingAreRejected) {
  const Fixture f;
  const halo::ExchangeConfig config = halo::read_config_file(kConfigs / "comb_200_np64.cfg");
  try {
    predict_exchange(config, f.params, RankMapping::consecutive(4, 2, 8));
    FAIL() << "accepted 64 ranks on 8 nodes of 4";
  } catch (const ModelError& error) {
    const std::string what = error.what();
    EXPECT_NE(what.find("64 ranks"), std::string::npos) << what;
    EXPECT_NE(what.find("holds 32"), std::string::npos) << what;
  }
  EXPECT_THROW(predict_exchange(config, f.params, RankMapping::explicit_locations({{0, 0}, {0, 0}})),
               ModelError);
  EXPECT_NO_THROW(predict_exchange(config, f.params, RankMapping::consecutive(4, 2, 16)));
}

halo::Message message(int peer, int tag, std::int64_t bytes) {
  halo::Message m;
  m.peer = peer;
  m.tag = tag;
  m.bytes = bytes;
  return m;
}

TEST(Prediction, KPrimeCountsOnlyRanksThatSend) {
  // Four ranks on one node (4 per node, 2 per socket); rank 3 sends nothing, rank 0 also sends
  // to itself. k' = 3 on the node; rank 3's SP and T_comm are 0.
  halo::ExchangeConfig config;
  config.ranks = 4;
  config.rank_messages.resize(4);
  config.rank_messages[0].sends = {message(1, 0, 60000), message(2, 1, 60000), message(0, 2, 24)};
  config.rank_messages[1].sends = {message(0, 0, 60000)};
  config.rank_messages[2].sends = {message(3, 0, 60000)};
  config.rank_messages[1].recvs = {message(0, 0, 60000)};
  config.rank_messages[0].recvs = {message(1, 0, 60000), message(0, 2, 24)};
  config.rank_messages[2].recvs = {message(0, 1, 60000)};
  config.rank_messages[3].recvs = {message(2, 0, 60000)};
  const Fixture f;
  const ExchangePrediction prediction = predict_exchange(config, f.params, f.mapping);
  EXPECT_EQ(prediction.ranks[0].counts, (ContentionCounts{0, 3, 3}));
  EXPECT_EQ(prediction.ranks[0].sends[2].time.message_class, MessageClass::intra_socket);
  // Rank 0's message to rank 2 crosses sockets with K_inter = 0: N = 0 is used as 1, so
  // T = 3.41e-6 + 60000 / 8.41e9 = 1.054436e-5 s.
  EXPECT_NEAR(prediction.ranks[0].sends[1].time.seconds, 1.054436e-5, 1e-10);
  const RankPrediction& silent = prediction.ranks[3];
  EXPECT_EQ(silent.counts.k_total, 0);
  EXPECT_EQ(silent.slowest_send, -1);
  EXPECT_DOUBLE_EQ(silent.sp.seconds, 0.0);
  EXPECT_DOUBLE_EQ(silent.t_comm, 0.0);
  EXPECT_NEAR(silent.lup.seconds, 12.0e-6, 1e-15);
}

TEST(Prediction, SizesOutsideTheTableAreNoted) {
  halo::ExchangeConfig config;
  config.ranks = 2;
  config.rank_messages.resize(2);
  config.rank_messages[0].sends = {message(1, 0, 8)};
  config.rank_messages[1].recvs = {message(0, 0, 8)};
  config.rank_messages[1].sends = {message(0, 1, 1920000)};
  config.rank_messages[0].recvs = {message(1, 1, 1920000)};
  const Fixture f;
  const ExchangePrediction prediction = predict_exchange(config, f.params, f.mapping);
  EXPECT_EQ(prediction.ranks[0].sp.range, TableRange::below_clamped);
  EXPECT_EQ(prediction.ranks[0].lup.range, TableRange::above_extrapolated);
  // Rank 0 packs 8 B (clamped) and unpacks 1920000 B (extrapolated); rank 1 the other way round.
  EXPECT_EQ(prediction.ranks[1].sp.range, TableRange::above_extrapolated);
  EXPECT_EQ(prediction.ranks[1].lup.range, TableRange::below_clamped);
  ASSERT_EQ(prediction.notes.size(), 4u);
  EXPECT_EQ(prediction.notes[0],
            "pack time of 1920000 B: above the table's largest size (960000 B), extrapolated from "
            "the last two sizes");
  EXPECT_EQ(prediction.notes[1],
            "pack time of 8 B: below the table's smallest size (24 B), clamped to its time");
  EXPECT_NE(prediction.notes[2].find("unpack time of 1920000 B"), std::string::npos);
  EXPECT_NE(prediction.notes[3].find("unpack time of 8 B"), std::string::npos);
  // SP of rank 0 is pack(24) = 1.75 us; LUP is 105 + 960000 * 74.6 / 720000 = 204.4667 us.
  EXPECT_NEAR(prediction.ranks[0].sp.seconds, 1.75e-6, 1e-15);
  EXPECT_NEAR(prediction.ranks[0].lup.seconds, (105.0 + 960000.0 * 74.6 / 720000.0) * 1e-6, 1e-12);
}

TEST(Prediction, InconsistentConfigsAreRejected) {
  halo::ExchangeConfig config;
  config.ranks = 2;
  config.rank_messages.resize(2);
  config.rank_messages[0].sends = {message(5, 3, 8)};
  const Fixture f;
  try {
    predict_exchange(config, f.params, f.mapping);
    FAIL() << "accepted";
  } catch (const ModelError& error) {
    EXPECT_NE(std::string(error.what()).find("rank 0 sends to peer 5 (tag 3)"), std::string::npos)
        << error.what();
  }
}

// The node transport with synthetic terms: 1.5 us per copy, 250 GB/s, 0.8 us per flag. A node
// message costs copy + flag: 60000 B 2.54 us, 240000 B 3.26 us, 5000000 B 22.3 us; a node
// receive's unpack is at least its copy: 60000 B 1.74 us, 240000 B 2.46 us, 5000000 B 21.5 us.
const NodeTransportParams kNode{1.5e-6, 2.5e11, 0.8e-6};

MachineParams with_node_transport() {
  MachineParams params = read_params_file(kPower9);
  params.node_transport = kNode;
  return params;
}

TEST(Prediction, PaperBoundsUnchangedOnTheMpiTransport) {
  // The node terms in the file change nothing while the transport is mpi (the default).
  const MachineParams params = with_node_transport();
  const char* names[] = {"comb_200_np64.cfg", "comb_400_np64.cfg", "comb_800_np64.cfg",
                         "comb_200_np2_reduced.cfg"};
  for (const char* name : names) {
    SCOPED_TRACE(name);
    const halo::ExchangeConfig config = halo::read_config_file(kConfigs / name);
    const ExchangePrediction paper = predict(name);
    const ExchangePrediction mpi = predict_exchange(config, params, *params.mapping);
    EXPECT_EQ(mpi.bound, paper.bound);
    EXPECT_EQ(mpi.critical_rank, paper.critical_rank);
    EXPECT_FALSE(mpi.node_transport_used);
    EXPECT_EQ(predict_exchange(config, params, *params.mapping, TransportChoice::mpi).bound,
              paper.bound);
    for (const RankPrediction& rank : mpi.ranks) {
      for (const MessagePrediction& m : rank.sends) EXPECT_EQ(m.time.path, MessagePath::mpi);
    }
  }
  EXPECT_NEAR(predict("comb_200_np64.cfg").bound * 1e6, 35.99813, 1e-4);
}

// Both ranks of the two-rank reduction on one node: every message is a node message.
//   T_comm = the 60000 B face, 2.54 us (SP 0: the copy is the pack); LUP = copy of 60000 B,
//   1.74 us. Bound = 2.54 + 1.74 = 4.28 us (18.764 us on MPI).
TEST(Prediction, TwoRanksOnOneNodeByHand) {
  const MachineParams params = with_node_transport();
  const halo::ExchangeConfig config =
      halo::read_config_file(kConfigs / "comb_200_np2_reduced.cfg");
  const RankMapping one_node = RankMapping::consecutive(2, 2);
  for (const TransportChoice transport : {TransportChoice::node, TransportChoice::automatic}) {
    const ExchangePrediction prediction = predict_exchange(config, params, one_node, transport);
    EXPECT_TRUE(prediction.node_transport_used);
    EXPECT_NEAR(prediction.bound * 1e6, 4.28, 1e-9);
    for (const RankPrediction& r : prediction.ranks) {
      SCOPED_TRACE("rank " + std::to_string(r.rank));
      for (const MessagePrediction& m : r.sends) {
        EXPECT_EQ(m.time.path, MessagePath::node);
        EXPECT_EQ(m.time.message_class, MessageClass::intra_socket);
      }
      EXPECT_DOUBLE_EQ(r.sp.seconds, 0.0);
      EXPECT_EQ(r.shortest_send_bytes, 0);
      ASSERT_GE(r.slowest_send, 0);
      EXPECT_EQ(r.sends[static_cast<std::size_t>(r.slowest_send)].bytes, 60000);
      EXPECT_NEAR(r.t_comm, 2.54e-6, 1e-15);
      EXPECT_EQ(r.lup_path, MessagePath::node);
      EXPECT_EQ(r.longest_recv_bytes, 60000);
      EXPECT_NEAR(r.lup.seconds, 1.74e-6, 1e-15);
      // The K-model's counts do not depend on the transport.
      EXPECT_EQ(r.counts, (ContentionCounts{0, 26, 2}));
    }
    EXPECT_TRUE(prediction.notes.empty());
  }
  EXPECT_NEAR(predict_exchange(config, params, one_node).bound * 1e6, 18.764, 1e-6);
}

// Four ranks on two nodes (consecutive, 2 per node, 1 per socket): rank r sends `partner_bytes`
// to its node partner r ^ 1 (inter-socket) and 60000 B to rank (r + 2) % 4 on the other node,
// and receives the same. Each rank: K_inter 1, K_total 2, k' 2, so N = 1/2 * 2 = 1.
halo::ExchangeConfig two_nodes_config(std::int64_t partner_bytes) {
  halo::ExchangeConfig config;
  config.ranks = 4;
  config.rank_messages.resize(4);
  for (int r = 0; r < 4; ++r) {
    const int partner = r ^ 1;
    const int remote = (r + 2) % 4;
    config.rank_messages[r].sends = {message(partner, 0, partner_bytes), message(remote, 1, 60000)};
    config.rank_messages[r].recvs = {message(partner, 0, partner_bytes), message(remote, 1, 60000)};
  }
  return config;
}

// Partner messages of 240000 B. The 60000 B inter-node message (eager, N = 1) takes
// 2.36e-6 + 60000 / 4.92e9 = 14.55512 us on MPI.
//  mpi : SP pack(60000) 3.98 + T_comm max(inter-socket 3.41e-6 + 240000 / 8.41e9 = 31.94746,
//        14.55512) + LUP unpack(240000) 30.40 = 66.32746 us.
//  node: MPI branch SP 3.98 + 14.55512 = 18.53512 > node branch 3.26 -> SP 3.98 + T_comm
//        14.55512; LUP max(unpack(60000) 12.00 from the table, copy(240000) 2.46) = 12.00.
//        Bound = 3.98 + 14.55512 + 12.00 = 30.53512 us.
TEST(Prediction, FourRanksOnTwoNodesMixPathsByHand) {
  const MachineParams params = with_node_transport();
  const halo::ExchangeConfig config = two_nodes_config(240000);
  const RankMapping mapping = RankMapping::consecutive(2, 1);

  const ExchangePrediction mpi = predict_exchange(config, params, mapping);
  EXPECT_NEAR(mpi.bound * 1e6, 66.32746, 1e-4);

  const ExchangePrediction node = predict_exchange(config, params, mapping, TransportChoice::node);
  EXPECT_NEAR(node.bound * 1e6, 30.53512, 1e-4);
  for (const RankPrediction& r : node.ranks) {
    SCOPED_TRACE("rank " + std::to_string(r.rank));
    EXPECT_EQ(r.counts, (ContentionCounts{1, 2, 2}));
    ASSERT_EQ(r.sends.size(), 2u);
    EXPECT_EQ(r.sends[0].time.path, MessagePath::node);
    EXPECT_EQ(r.sends[0].time.message_class, MessageClass::inter_socket);
    EXPECT_NEAR(r.sends[0].time.seconds, 3.26e-6, 1e-15);
    EXPECT_EQ(r.sends[1].time.path, MessagePath::mpi);
    EXPECT_EQ(r.sends[1].time.message_class, MessageClass::inter_node);
    EXPECT_NEAR(r.sends[1].time.seconds, 2.36e-6 + 60000 / 4.92e9, 1e-15);
    EXPECT_EQ(r.slowest_send, 1);
    EXPECT_EQ(r.shortest_send_bytes, 60000);
    EXPECT_NEAR(r.sp.seconds, 3.98e-6, 1e-15);
    EXPECT_EQ(r.lup_path, MessagePath::mpi);
    EXPECT_EQ(r.longest_recv_bytes, 60000);
    EXPECT_NEAR(r.lup.seconds, 12.0e-6, 1e-15);
  }
}

// Partner messages of 5000000 B: the node branch, 1.5 + 20 + 0.8 = 22.3 us, now exceeds the MPI
// branch's 18.53512 us, so SP is not charged; LUP max(12.00, copy(5000000) 21.5) = 21.5 us.
// Bound = 22.3 + 21.5 = 43.8 us.
TEST(Prediction, FourRanksOnTwoNodesNodeBranchByHand) {
  const ExchangePrediction prediction =
      predict_exchange(two_nodes_config(5000000), with_node_transport(),
                       RankMapping::consecutive(2, 1), TransportChoice::node);
  EXPECT_NEAR(prediction.bound * 1e6, 43.8, 1e-9);
  const RankPrediction& r = prediction.critical();
  EXPECT_EQ(r.slowest_send, 0);
  EXPECT_DOUBLE_EQ(r.sp.seconds, 0.0);
  EXPECT_EQ(r.shortest_send_bytes, 0);
  EXPECT_NEAR(r.t_comm, 22.3e-6, 1e-15);
  EXPECT_EQ(r.lup_path, MessagePath::node);
  EXPECT_EQ(r.longest_recv_bytes, 5000000);
  EXPECT_NEAR(r.lup.seconds, 21.5e-6, 1e-15);
  // Only the table lookups the bound charges are noted: none here is outside the table.
  EXPECT_TRUE(prediction.notes.empty());
}

// On the 64-rank runs only each rank's two x-neighbours share its node. At 400^3 the
// inter-socket face was the slowest message (35.63558 us); on the node transport it takes
// 3.26 us, and the inter-node rendezvous face (22.00933 us) decides:
// 1.75 + 22.00933 + 30.40 = 54.15933 us. At 200^3 the inter-node face decided already: 35.99813.
TEST(Prediction, SixtyFourRanksOnTheNodeTransport) {
  const MachineParams params = with_node_transport();
  const auto bound_us = [&](const char* name) {
    const halo::ExchangeConfig config = halo::read_config_file(kConfigs / name);
    return predict_exchange(config, params, *params.mapping, TransportChoice::node).bound * 1e6;
  };
  EXPECT_NEAR(bound_us("comb_200_np64.cfg"), 35.99813, 1e-4);
  EXPECT_NEAR(bound_us("comb_400_np64.cfg"), 54.15933, 1e-4);
}

TEST(Prediction, TransportNodeNeedsTheTerms) {
  const Fixture f;  // the paper's file: no node_transport
  const halo::ExchangeConfig config = halo::read_config_file(kConfigs / "comb_200_np2_reduced.cfg");
  try {
    predict_exchange(config, f.params, f.mapping, TransportChoice::node);
    FAIL() << "accepted";
  } catch (const ModelError& error) {
    EXPECT_NE(std::string(error.what()).find("node_transport: missing"), std::string::npos)
        << error.what();
  }
  // auto falls back to MPI and says so.
  const ExchangePrediction automatic =
      predict_exchange(config, f.params, f.mapping, TransportChoice::automatic);
  EXPECT_FALSE(automatic.node_transport_used);
  EXPECT_NEAR(automatic.bound * 1e6, 18.764, 1e-6);
  ASSERT_EQ(automatic.notes.size(), 1u);
  EXPECT_NE(automatic.notes[0].find("no node_transport"), std::string::npos) << automatic.notes[0];
}

}  // namespace
