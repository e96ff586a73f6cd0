// warm_first_send_piece: which piece a block's start warms, in the order piece_grid_sends takes
// them (node pieces first, then self), and that only the first member of a second warp warms.
// The tables are host vectors of the exact length, so a read past one shows under the
// sanitizers; on the host the cache hints themselves do nothing.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "haloflag/kernels/detail/exchange_plan.hpp"
#include "haloflag/kernels/message_layout.hpp"
#include "haloflag/kernels/transports/piece_grid_steps.hpp"

namespace haloflag::kernels {
namespace {

// One member of a group of `members` (the warm-up reads nothing of the group but these).
struct MemberOf {
  int member;
  int members;
  int thread() const { return member; }
  int size() const { return members; }
  void sync() const {}
  int from_leader(int value) const { return value; }
};

// Three messages: 0 and 1 to a node peer in 2 and 1 pieces, 2 to this rank itself (into
// receive 1) in 2 pieces.
struct Tables {
  std::vector<MessageLayout> sends = std::vector<MessageLayout>(3);
  std::vector<MessageLayout> recvs = std::vector<MessageLayout>(2);
  std::vector<NodePeerRoute> peers = std::vector<NodePeerRoute>(1);
  std::vector<NodeSendRoute> node_sends = std::vector<NodeSendRoute>(3);
  std::vector<NodePiece> node_pieces{{0, 0, 4, 0}, {0, 4, 4, 0}, {1, 0, 3, 0}};
  std::vector<SelfPiece> self_pieces{{2, 0, 5, 1}, {2, 5, 2, 1}};
  NodePlan node{};
  SelfPlan self{};
  ExchangePlan plan{};

  Tables(bool with_node, bool with_self) {
    node.peers = peers.data();
    node.sends = node_sends.data();
    node.send_pieces = node_pieces.data();
    node.peer_count = 1;
    node.send_piece_count = static_cast<std::uint32_t>(node_pieces.size());
    self.pieces = self_pieces.data();
    self.piece_count = static_cast<std::uint32_t>(self_pieces.size());
    plan.sends = sends.data();
    plan.recvs = recvs.data();
    plan.routes.node = with_node ? &node : nullptr;
    plan.routes.self = with_self ? &self : nullptr;
  }
};

std::uint32_t warmed(const Tables& tables, std::uint32_t block, MemberOf member = {32, 256}) {
  return detail::warm_first_send_piece(member, tables.plan, block);
}

TEST(WarmFirstSendPiece, EachBlockWarmsItsFirstPieceNodePiecesFirst) {
  const Tables tables(true, true);
  for (std::uint32_t block = 0; block < 5; ++block) EXPECT_EQ(warmed(tables, block), block);
  EXPECT_EQ(warmed(tables, 5), detail::kNoPieceWarmed);
  EXPECT_EQ(warmed(tables, 40), detail::kNoPieceWarmed);
}

TEST(WarmFirstSendPiece, SelfPiecesAloneStartAtBlockZero) {
  const Tables tables(false, true);
  EXPECT_EQ(warmed(tables, 0), 0u);
  EXPECT_EQ(warmed(tables, 1), 1u);
  EXPECT_EQ(warmed(tables, 2), detail::kNoPieceWarmed);
}

TEST(WarmFirstSendPiece, NodePiecesAloneEndAtTheirCount) {
  const Tables tables(true, false);
  EXPECT_EQ(warmed(tables, 2), 2u);
  EXPECT_EQ(warmed(tables, 3), detail::kNoPieceWarmed);
}

TEST(WarmFirstSendPiece, APlanWithoutPiecesWarmsNothing) {
  const Tables tables(false, false);
  EXPECT_EQ(warmed(tables, 0), detail::kNoPieceWarmed);
}

TEST(WarmFirstSendPiece, OnlyTheSecondWarpsFirstMemberWarms) {
  const Tables tables(true, true);
  EXPECT_EQ(warmed(tables, 0, {0, 256}), detail::kNoPieceWarmed);  // the leader checks the epoch
  EXPECT_EQ(warmed(tables, 0, {33, 256}), detail::kNoPieceWarmed);
  EXPECT_EQ(warmed(tables, 0, {32, 33}), 0u);
  // A group of one warp has no other warp: its leader would wait for the chain before its check.
  EXPECT_EQ(warmed(tables, 0, {0, 32}), detail::kNoPieceWarmed);
  EXPECT_EQ(warmed(tables, 0, {0, 1}), detail::kNoPieceWarmed);
}

}  // namespace
}  // namespace haloflag::kernels
