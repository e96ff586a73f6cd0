// Eq. 2-4 of the paper with its Power9+V100 values, checked against numbers worked out by hand,
// the eager/rendezvous switch, and the node transport's copy and flag terms.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "haloflag/model/errors.hpp"
#include "haloflag/model/message_time.hpp"
#include "haloflag/model/transport.hpp"

namespace {

using namespace haloflag::model;

const PostalParams kIntraSocket{2.92e-6, 3.49e-11};
const KModelParams kInterSocket{3.41e-6, 8.41e9, 7.09e9};
const KModelParams kInterNodeEager{2.36e-6, 4.92e9, 2.31e9};
const KModelParams kInterNodeRendezvous{1.06e-5, 1.79e10, 2.22e10};

// The paper's counts for an interior rank of the 64-rank runs.
const ContentionCounts kPaperCounts{24, 26, 4};

// Relative tolerance for the hand-computed values (they are written with 6 digits).
void expect_close(double actual, double expected) {
  EXPECT_NEAR(actual, expected, 1e-5 * expected) << "actual " << actual;
}

MachineParams power9_params() {
  MachineParams params;
  params.eager_threshold_bytes = 65536;
  params.intra_socket = ProtocolParams<PostalParams>::both(kIntraSocket);
  params.inter_socket = ProtocolParams<KModelParams>::both(kInterSocket);
  params.inter_node = {kInterNodeEager, kInterNodeRendezvous};
  return params;
}

TEST(MessageTime, PostalIntraSocket) {
  // Eq. 2, n = 60000: 2.92e-6 + 3.49e-11 * 60000 = 2.92e-6 + 2.094e-6 = 5.014e-6 s.
  expect_close(postal_time(kIntraSocket, 60000), 5.014e-6);
  // n = 960000: 2.92e-6 + 3.3504e-5 = 3.6424e-5 s.
  expect_close(postal_time(kIntraSocket, 960000), 3.6424e-5);
  EXPECT_DOUBLE_EQ(postal_time(kIntraSocket, 0), 2.92e-6);
}

TEST(MessageTime, PaperConcurrency) {
  // (K_inter / K_total) * k' = 24/26 * 4 = 48/13 = 3.6923077.
  EXPECT_NEAR(kPaperCounts.concurrency(), 48.0 / 13.0, 1e-12);
  EXPECT_NEAR(kPaperCounts.effective_concurrency(), 48.0 / 13.0, 1e-12);
}

TEST(MessageTime, InterNodeEagerByHand) {
  // Eq. 4: beta = 1 / (4.92e9 + (48/13 - 1) * 2.31e9) = 1 / (4.92e9 + 35/13 * 2.31e9)
  //             = 1 / (4.92e9 + 6.2192308e9) = 1 / 1.11392308e10 = 8.977281e-11 s/B.
  const double n_concurrent = kPaperCounts.concurrency();
  expect_close(kmodel_beta(kInterNodeEager, n_concurrent), 8.977281e-11);
  // Eq. 3, n = 60000: 2.36e-6 + 48/13 * 60000 * 8.977281e-11
  //                 = 2.36e-6 + 221538.46 * 8.977281e-11 = 2.36e-6 + 1.988813e-5 = 2.224813e-5 s.
  expect_close(kmodel_time(kInterNodeEager, 60000, n_concurrent), 2.224813e-5);
}

TEST(MessageTime, InterNodeRendezvousByHand) {
  // beta = 1 / (1.79e10 + 35/13 * 2.22e10) = 1 / (1.79e10 + 5.9769231e10) = 1 / 7.7669231e10
  //      = 1.287511e-11 s/B.
  const double n_concurrent = kPaperCounts.concurrency();
  expect_close(kmodel_beta(kInterNodeRendezvous, n_concurrent), 1.287511e-11);
  // n = 240000: 1.06e-5 + 48/13 * 240000 * 1.287511e-11 = 1.06e-5 + 1.140933e-5 = 2.200933e-5 s.
  expect_close(kmodel_time(kInterNodeRendezvous, 240000, n_concurrent), 2.200933e-5);
  // n = 960000: 1.06e-5 + 4.563732e-5 = 5.623732e-5 s.
  expect_close(kmodel_time(kInterNodeRendezvous, 960000, n_concurrent), 5.623732e-5);
}

TEST(MessageTime, InterSocketByHand) {
  // beta = 1 / (8.41e9 + 35/13 * 7.09e9) = 1 / (8.41e9 + 1.9088462e10) = 1 / 2.7498462e10
  //      = 3.636567e-11 s/B.
  const double n_concurrent = kPaperCounts.concurrency();
  expect_close(kmodel_beta(kInterSocket, n_concurrent), 3.636567e-11);
  // n = 60000: 3.41e-6 + 221538.46 * 3.636567e-11 = 3.41e-6 + 8.056395e-6 = 1.146639e-5 s.
  expect_close(kmodel_time(kInterSocket, 60000, n_concurrent), 1.146639e-5);
  // n = 240000: 3.41e-6 + 886153.85 * 3.636567e-11 = 3.41e-6 + 3.222558e-5 = 3.563558e-5 s.
  expect_close(kmodel_time(kInterSocket, 240000, n_concurrent), 3.563558e-5);
}

TEST(MessageTime, OneFlowIsPlainBandwidth) {
  // N = 1: beta = 1 / R_Cb, T = alpha + n / R_Cb (the max-rate model's single process).
  EXPECT_DOUBLE_EQ(kmodel_beta(kInterSocket, 1.0), 1.0 / 8.41e9);
  expect_close(kmodel_time(kInterSocket, 60000, 1.0), 3.41e-6 + 60000 / 8.41e9);
}

TEST(MessageTime, ProtocolSwitchAtThreshold) {
  EXPECT_EQ(protocol_for(65536, 65536), Protocol::eager);  // n <= threshold: eager
  EXPECT_EQ(protocol_for(65537, 65536), Protocol::rendezvous);
  EXPECT_EQ(protocol_for(60000, 65536), Protocol::eager);
  EXPECT_EQ(protocol_for(240000, 65536), Protocol::rendezvous);
  EXPECT_EQ(protocol_for(1, 0), Protocol::rendezvous);

  const MachineParams params = power9_params();
  // The same class and counts take the eager set at 60000 B and the rendezvous set at 240000 B.
  const MessageTime eager = message_time(params, MessageClass::inter_node, 60000, kPaperCounts);
  EXPECT_EQ(eager.protocol, Protocol::eager);
  expect_close(eager.seconds, 2.224813e-5);
  expect_close(eager.beta, 8.977281e-11);
  const MessageTime rendezvous =
      message_time(params, MessageClass::inter_node, 240000, kPaperCounts);
  EXPECT_EQ(rendezvous.protocol, Protocol::rendezvous);
  expect_close(rendezvous.seconds, 2.200933e-5);

  // At the threshold itself the eager set, one byte above the rendezvous set: the jump is the
  // difference of alphas and betas (1.06e-5 vs 2.36e-6 s: rendezvous costs more just above it).
  const MessageTime at = message_time(params, MessageClass::inter_node, 65536, kPaperCounts);
  const MessageTime above = message_time(params, MessageClass::inter_node, 65537, kPaperCounts);
  EXPECT_EQ(at.protocol, Protocol::eager);
  EXPECT_EQ(above.protocol, Protocol::rendezvous);
  expect_close(at.seconds, 2.36e-6 + 48.0 / 13.0 * 65536 / 1.11392308e10);
  expect_close(above.seconds, 1.06e-5 + 48.0 / 13.0 * 65537 / 7.7669231e10);
}

TEST(MessageTime, ClassesUseTheirOwnSets) {
  const MachineParams params = power9_params();
  const MessageTime intra = message_time(params, MessageClass::intra_socket, 60000, kPaperCounts);
  EXPECT_EQ(intra.message_class, MessageClass::intra_socket);
  EXPECT_DOUBLE_EQ(intra.concurrency, 1.0);  // Eq. 2 has no concurrency
  expect_close(intra.seconds, 5.014e-6);
  const MessageTime socket = message_time(params, MessageClass::inter_socket, 60000, kPaperCounts);
  expect_close(socket.seconds, 1.146639e-5);
  EXPECT_NEAR(socket.concurrency, 48.0 / 13.0, 1e-12);
}

TEST(MessageTime, ConcurrencyBelowOneCountsAsOneFlow) {
  // A rank on a node with no off-node traffic (K_inter = 0): (0/26) * 4 = 0, used as 1.
  const ContentionCounts on_node{0, 26, 4};
  EXPECT_DOUBLE_EQ(on_node.concurrency(), 0.0);
  EXPECT_DOUBLE_EQ(on_node.effective_concurrency(), 1.0);
  // Inter-socket 60000 B: 3.41e-6 + 60000 / 8.41e9 = 3.41e-6 + 7.134364e-6 = 1.054436e-5 s.
  const MessageTime t = message_time(power9_params(), MessageClass::inter_socket, 60000, on_node);
  expect_close(t.seconds, 1.054436e-5);
  // A rank that sends nothing has no concurrency at all.
  EXPECT_DOUBLE_EQ((ContentionCounts{0, 0, 4}.concurrency()), 0.0);
}

TEST(MessageTime, NegativeAggregateRateIsRejected) {
  // Literal Eq. 4 with N = 0 and R_Ci > R_Cb: 1e9 + (0 - 1) * 2e9 < 0.
  EXPECT_THROW(kmodel_beta(KModelParams{1e-6, 1e9, 2e9}, 0.0), ModelError);
}

// Node transport terms of a synthetic machine: 1.5 us per copy, 250 GB/s, 0.8 us per flag.
const NodeTransportParams kNode{1.5e-6, 2.5e11, 0.8e-6};

TEST(MessageTime, NodeTransportByHand) {
  // Copy of 60000 B: 1.5e-6 + 60000 / 2.5e11 = 1.5e-6 + 2.4e-7 = 1.74e-6 s.
  expect_close(node_copy_time(kNode, 60000), 1.74e-6);
  // The message: copy + flag = 1.74e-6 + 0.8e-6 = 2.54e-6 s.
  expect_close(node_transport_time(kNode, 60000), 2.54e-6);
  // 960000 B: 1.5e-6 + 3.84e-6 + 0.8e-6 = 6.14e-6 s.
  expect_close(node_transport_time(kNode, 960000), 6.14e-6);

  const MessageTime t = node_message_time(kNode, MessageClass::inter_socket, 60000);
  EXPECT_EQ(t.path, MessagePath::node);
  EXPECT_EQ(t.message_class, MessageClass::inter_socket);  // where the peer is, kept
  EXPECT_DOUBLE_EQ(t.concurrency, 1.0);
  EXPECT_DOUBLE_EQ(t.beta, 1.0 / 2.5e11);
  expect_close(t.seconds, 2.54e-6);
  // The MPI path's messages say so.
  EXPECT_EQ(message_time(power9_params(), MessageClass::intra_socket, 60000, kPaperCounts).path,
            MessagePath::mpi);
}

TEST(MessageTime, NodeTransportStaysOnTheNode) {
  EXPECT_THROW(node_message_time(kNode, MessageClass::inter_node, 60000), ModelError);
}

TEST(MessageTime, TransportChoicesParse) {
  EXPECT_EQ(parse_transport_choice("mpi"), TransportChoice::mpi);
  EXPECT_EQ(parse_transport_choice("node"), TransportChoice::node);
  EXPECT_EQ(parse_transport_choice("auto"), TransportChoice::automatic);
  EXPECT_EQ(to_string(TransportChoice::automatic), "auto");
  try {
    parse_transport_choice("ipc");
    FAIL() << "accepted";
  } catch (const std::invalid_argument& error) {
    EXPECT_NE(std::string(error.what()).find("valid: mpi, node, auto"), std::string::npos);
  }
}

}  // namespace
