// The peer handshake at set-up: each rank changes its own part of an otherwise
// valid config, as a rank with a stale or wrong config file would, and every rank's Exchange
// constructor must fail before the first exchange, without waiting for a deadline. Both ranks of
// the disagreeing pair name the message (peer, tag, bytes on each side, direction); every other
// rank names a rank that failed.
#include <gtest/gtest.h>
#include <mpi.h>

#include <chrono>
#include <cstddef>
#include <string>

#include "exchange_failure.hpp"
#include "haloflag/halo/config_from_geometry.hpp"
#include "haloflag/halo/device_fields.hpp"
#include "haloflag/halo/exchange.hpp"
#include "haloflag/halo/geometry.hpp"
#include "haloflag/halo/strategy.hpp"
#include "haloflag/notify/backend.hpp"
#include "mpi_world.hpp"

namespace {

using namespace haloflag::halo;
using haloflag::notify::Backend;
using haloflag::test::contains;
using haloflag::test::ExchangeFailure;
using haloflag::test::failure_of;
using haloflag::test::receive_name;
using haloflag::test::send_name;
using haloflag::test::world_rank;
using haloflag::test::world_size;

constexpr auto kTimeout = std::chrono::seconds(2);
constexpr double kTimeoutSeconds = 2.0;

// Rank 1 disagrees with rank 0 in the tests of a pair.
constexpr int kSender = 1;
constexpr int kReceiver = 0;

ExchangeConfig periodic_cube_config() {
  GeometrySpec spec;
  spec.global_size = {8, 8, 8};
  spec.ranks = world_size();
  spec.periodic = {true, true, true};
  return make_exchange_config(Geometry(spec));
}

// Builds the Exchange from `config` on every rank and returns this rank's error.
ExchangeFailure set_up_failure(const ExchangeConfig& config,
                               Strategy strategy = Strategy::stream_notify) {
  ExchangeOptions options;
  options.strategy = strategy;
  options.backend = Backend::host;
  options.timeout = kTimeout;
  const RankMessages& mine = config.rank_messages.at(static_cast<std::size_t>(world_rank()));
  DeviceFields fields(options.backend, mine.field_extent.value(), config.data.value().vars);
  return failure_of([&] { Exchange exchange(config, fields.view(), options); });
}

std::size_t first_send_to(const RankMessages& messages, int peer) {
  for (std::size_t m = 0; m < messages.sends.size(); ++m) {
    if (messages.sends[m].peer == peer) return m;
  }
  ADD_FAILURE() << "no send to peer " << peer;
  return 0;
}

const Message& receive_of(const RankMessages& messages, int peer, int tag) {
  for (const Message& m : messages.recvs) {
    if (m.peer == peer && m.tag == tag) return m;
  }
  ADD_FAILURE() << "no receive from peer " << peer << " tag " << tag;
  return messages.recvs.front();
}

// The ranks outside the disagreeing pair fail too, naming the highest rank that failed.
void expect_bystander_error(const ExchangeFailure& failure, int failed_rank) {
  EXPECT_TRUE(contains(failure.message, "rank " + std::to_string(world_rank()) + ": rank " +
                                            std::to_string(failed_rank) +
                                            " failed to agree with its peers"))
      << failure.message;
}

class EveryStrategy : public testing::TestWithParam<Strategy> {};

// The first case: one side sends more bytes than the other expects. The kernels of every
// strategy (resident ones run from set-up on) are stopped again when the handshake fails.
TEST_P(EveryStrategy, WrongMessageSizeIsReportedOnBothSidesBeforeTheFirstExchange) {
  if (world_size() < 2) GTEST_SKIP() << "needs a pair of ranks";
  ExchangeConfig config = periodic_cube_config();
  RankMessages& sender = config.rank_messages[kSender];
  const std::size_t index = first_send_to(sender, kReceiver);
  const Message expected =
      receive_of(config.rank_messages[kReceiver], kSender, sender.sends[index].tag);
  Message doubled = sender.sends[index];
  const auto boxes = doubled.boxes;
  doubled.boxes.insert(doubled.boxes.end(), boxes.begin(), boxes.end());  // packed twice
  doubled.bytes *= 2;
  if (world_rank() == kSender) sender.sends[index] = doubled;

  const ExchangeFailure failure = set_up_failure(config, GetParam());
  ASSERT_TRUE(failure.thrown) << "rank " << world_rank() << " built an Exchange";
  EXPECT_LT(failure.seconds, kTimeoutSeconds) << "the handshake waited for its deadline";
  const std::string& text = failure.message;
  if (world_rank() == kSender) {
    EXPECT_TRUE(contains(text, "rank 1: the peer handshake found")) << text;
    EXPECT_TRUE(contains(text, send_name(doubled) + ", towards ")) << text;
    EXPECT_TRUE(contains(text, "peer 0 expects to receive " + std::to_string(expected.bytes) +
                                   " bytes"))
        << text;
  } else if (world_rank() == kReceiver) {
    EXPECT_TRUE(contains(text, "rank 0: the peer handshake found")) << text;
    EXPECT_TRUE(contains(text, receive_name(expected) + ", from ")) << text;
    EXPECT_TRUE(contains(text, "peer 1 sends " + std::to_string(doubled.bytes) + " bytes")) << text;
  } else {
    expect_bystander_error(failure, kSender);
  }
}

INSTANTIATE_TEST_SUITE_P(Strategies, EveryStrategy,
                         testing::ValuesIn(all_strategies().begin(), all_strategies().end()),
                         [](const testing::TestParamInfo<Strategy>& param) {
                           return std::string(to_string(param.param));
                         });

// A message one side lists and the other does not: a tag on one side only, and a count.
TEST(PeerHandshake, MessageListedByTheReceiverOnlyIsReportedOnBothSides) {
  if (world_size() < 2) GTEST_SKIP() << "needs a pair of ranks";
  ExchangeConfig config = periodic_cube_config();
  RankMessages& sender = config.rank_messages[kSender];
  const std::size_t index = first_send_to(sender, kReceiver);
  const Message dropped = sender.sends[index];
  const Message expected = receive_of(config.rank_messages[kReceiver], kSender, dropped.tag);
  std::size_t sends_to_receiver = 0;
  for (const Message& m : sender.sends) sends_to_receiver += m.peer == kReceiver ? 1 : 0;
  if (world_rank() == kSender) {
    sender.sends.erase(sender.sends.begin() + static_cast<std::ptrdiff_t>(index));
  }

  const ExchangeFailure failure = set_up_failure(config);
  ASSERT_TRUE(failure.thrown);
  EXPECT_LT(failure.seconds, kTimeoutSeconds);
  const std::string& text = failure.message;
  const std::string tag = std::to_string(dropped.tag);
  const std::string count = std::to_string(sends_to_receiver);
  const std::string fewer = std::to_string(sends_to_receiver - 1);
  if (world_rank() == kSender) {
    EXPECT_TRUE(contains(text, "peer 0 expects to receive tag " + tag + " (" +
                                   std::to_string(dropped.bytes) +
                                   " bytes) from rank 1, which sends no message with that tag"))
        << text;
    EXPECT_TRUE(contains(text, "rank 1 sends " + fewer)) << text;
    EXPECT_TRUE(contains(text, "to peer 0, which expects " + count + " from it")) << text;
  } else if (world_rank() == kReceiver) {
    EXPECT_TRUE(contains(text, receive_name(expected) + ", from ")) << text;
    EXPECT_TRUE(contains(text, "peer 1 sends no message with tag " + tag + " to rank 0")) << text;
    EXPECT_TRUE(contains(text, "rank 0 expects " + count + " messages from peer 1, which sends " +
                                   fewer))
        << text;
  } else {
    expect_bystander_error(failure, kSender);
  }
}

// Two messages with the same peer and tag: MPI would match them in posting order, which the
// flag strategies do not fix, so data could land in the wrong ghost cells.
TEST(PeerHandshake, SamePeerAndTagTwiceIsReportedOnBothSides) {
  if (world_size() < 2) GTEST_SKIP() << "needs a pair of ranks";
  ExchangeConfig config = periodic_cube_config();
  RankMessages& sender = config.rank_messages[kSender];
  const Message repeated = sender.sends[first_send_to(sender, kReceiver)];
  if (world_rank() == kSender) sender.sends.push_back(repeated);

  const ExchangeFailure failure = set_up_failure(config);
  ASSERT_TRUE(failure.thrown);
  const std::string& text = failure.message;
  if (world_rank() == kSender) {
    EXPECT_TRUE(contains(text, "the same peer and tag as the " + send_name(repeated))) << text;
  } else if (world_rank() == kReceiver) {
    EXPECT_TRUE(contains(text, "peer 1 sends tag " + std::to_string(repeated.tag) + " (" +
                                   std::to_string(repeated.bytes) +
                                   " bytes) to rank 0, which expects no message with that tag"))
        << text;
  } else {
    expect_bystander_error(failure, kSender);
  }
}

// A rank whose config names a rank the other does not list at all: the pair is still compared
// (the handshake learns from every rank who lists whom), so the silent side reports it too.
TEST(PeerHandshake, MessageToARankThatListsNothingFromItIsReportedOnBothSides) {
  if (world_size() < 3) GTEST_SKIP() << "needs two ranks that are not neighbours (3 or more)";
  const int first = 0;
  const int last = world_size() - 1;
  GeometrySpec spec;
  spec.global_size = {4 * world_size(), 4, 4};
  spec.ranks = world_size();
  spec.divide = RankGrid{world_size(), 1, 1};  // slabs without wrap: first and last never meet
  ExchangeConfig config = make_exchange_config(Geometry(spec));
  Message stray = config.rank_messages[first].sends.front();
  stray.peer = last;
  stray.tag = 77;
  if (world_rank() == first) config.rank_messages[first].sends.push_back(stray);

  const ExchangeFailure failure = set_up_failure(config);
  ASSERT_TRUE(failure.thrown);
  EXPECT_LT(failure.seconds, kTimeoutSeconds);
  const std::string& text = failure.message;
  const std::string last_rank = std::to_string(last);
  if (world_rank() == first) {
    EXPECT_TRUE(contains(text, send_name(stray) + "): peer " + last_rank +
                                   " expects no message with tag 77 from rank 0"))
        << text;
  } else if (world_rank() == last) {
    EXPECT_TRUE(contains(text, "peer 0 sends tag 77 (" + std::to_string(stray.bytes) +
                                   " bytes) to rank " + last_rank +
                                   ", which expects no message with that tag from it"))
        << text;
    EXPECT_TRUE(contains(text, "rank " + last_rank +
                                   " expects 0 messages from peer 0, which sends 1"))
        << text;
  } else {
    expect_bystander_error(failure, last);
  }
}

// A peer outside the communicator is reported by its rank; the others are not left waiting.
TEST(PeerHandshake, PeerOutOfRangeIsReportedWithoutStallingTheOthers) {
  ExchangeConfig config = periodic_cube_config();
  Message stray = config.rank_messages[0].sends.front();
  stray.peer = world_size();
  if (world_rank() == 0) config.rank_messages[0].sends.push_back(stray);

  const ExchangeFailure failure = set_up_failure(config);
  ASSERT_TRUE(failure.thrown);
  EXPECT_LT(failure.seconds, kTimeoutSeconds);
  const std::string size = std::to_string(world_size());
  if (world_rank() == 0) {
    EXPECT_TRUE(contains(failure.message, send_name(stray))) << failure.message;
    EXPECT_TRUE(contains(failure.message, "peer " + size + " is out of range [0, " + size +
                                              ") of the communicator"))
        << failure.message;
  } else {
    expect_bystander_error(failure, 0);
  }
}

}  // namespace
