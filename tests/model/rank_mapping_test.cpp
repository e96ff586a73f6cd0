// Rank placement: consecutive ranks per node and socket, explicit lists, and configs that do not
// fit being rejected with the counts named.
#include <gtest/gtest.h>

#include <string>

#include "haloflag/model/errors.hpp"
#include "haloflag/model/rank_mapping.hpp"

namespace {

using namespace haloflag::model;

// Runs `action`, expecting a ModelError whose message contains every piece of `pieces`.
template <class Action>
void expect_model_error(Action action, std::initializer_list<std::string> pieces) {
  try {
    action();
    ADD_FAILURE() << "no ModelError thrown";
  } catch (const ModelError& error) {
    for (const std::string& piece : pieces) {
      EXPECT_NE(std::string(error.what()).find(piece), std::string::npos)
          << "'" << piece << "' not in: " << error.what();
    }
  }
}

TEST(RankMapping, ConsecutiveFourPerNodeTwoPerSocket) {
  const RankMapping mapping = RankMapping::consecutive(4, 2);
  EXPECT_EQ(mapping.location(0), (RankLocation{0, 0}));
  EXPECT_EQ(mapping.location(1), (RankLocation{0, 0}));
  EXPECT_EQ(mapping.location(2), (RankLocation{0, 1}));
  EXPECT_EQ(mapping.location(3), (RankLocation{0, 1}));
  EXPECT_EQ(mapping.location(4), (RankLocation{1, 0}));
  EXPECT_EQ(mapping.location(63), (RankLocation{15, 1}));
  EXPECT_EQ(mapping.classify(0, 0), MessageClass::intra_socket);  // to itself
  EXPECT_EQ(mapping.classify(0, 1), MessageClass::intra_socket);
  EXPECT_EQ(mapping.classify(1, 2), MessageClass::inter_socket);
  EXPECT_EQ(mapping.classify(0, 3), MessageClass::inter_socket);
  EXPECT_EQ(mapping.classify(3, 4), MessageClass::inter_node);
  EXPECT_EQ(mapping.classify(0, 63), MessageClass::inter_node);
  EXPECT_EQ(mapping.describe(), "consecutive, 4 ranks per node, 2 per socket");
  EXPECT_NO_THROW(mapping.check_fits(1000));  // no node count: any number of ranks fits
}

TEST(RankMapping, BadCountsAreRejected) {
  expect_model_error([] { RankMapping::consecutive(4, 3); }, {"4 ranks per node", "3 per socket",
                                                             "multiple"});
  expect_model_error([] { RankMapping::consecutive(0, 1); }, {"ranks per node must be >= 1"});
  expect_model_error([] { RankMapping::consecutive(4, 0); }, {"ranks per socket must be >= 1"});
  expect_model_error([] { RankMapping::consecutive(4, 2, 0); }, {"nodes must be >= 1"});
}

TEST(RankMapping, MoreRanksThanNodesHoldAreRejected) {
  const RankMapping mapping = RankMapping::consecutive(4, 2, 2);
  EXPECT_NO_THROW(mapping.check_fits(8));
  EXPECT_NO_THROW(mapping.check_fits(5));
  expect_model_error([&] { mapping.check_fits(9); },
                     {"9 ranks", "holds 8", "2 nodes x 4 ranks per node"});
}

TEST(RankMapping, ExplicitList) {
  // Open MPI's default for > 2 ranks maps by socket: ranks alternate sockets on a node.
  const RankMapping mapping =
      RankMapping::explicit_locations({{0, 0}, {0, 1}, {0, 0}, {0, 1}, {1, 0}});
  EXPECT_EQ(mapping.classify(0, 1), MessageClass::inter_socket);
  EXPECT_EQ(mapping.classify(0, 2), MessageClass::intra_socket);
  EXPECT_EQ(mapping.classify(3, 4), MessageClass::inter_node);
  EXPECT_NO_THROW(mapping.check_fits(5));
  expect_model_error([&] { mapping.check_fits(4); }, {"4 ranks", "lists 5"});
  expect_model_error([&] { mapping.location(5); }, {"rank 5"});
  expect_model_error([] { RankMapping::explicit_locations({{0, 0}, {-1, 0}}); },
                     {"rank 1", "node -1"});
  expect_model_error([] { RankMapping::explicit_locations({}); }, {"empty"});
}

}  // namespace
