// phases_of: the phase times of one traced exchange, and the CPU's cost of one send.
#include <gtest/gtest.h>

#include "haloflag/halo/exchange_timeline.hpp"

namespace haloflag::halo {
namespace {

SendTimeline send_seen_posted(std::int64_t ready_seen, std::int64_t posted) {
  SendTimeline send;
  send.ready_seen = ready_seen;
  send.posted = posted;
  return send;
}

TEST(ExchangePhases, TakeTheFirstAndLastOfEachKind) {
  ExchangeTimeline timeline;
  timeline.started = 5;
  timeline.duration_ns = 900;
  timeline.sends = {send_seen_posted(40, 45), send_seen_posted(20, 30)};
  RecvTimeline recv;
  recv.received = 300;
  recv.done_seen = 500;
  timeline.recvs = {recv, RecvTimeline{}};
  const ExchangePhases phases = phases_of(timeline);
  EXPECT_EQ(phases.started, 5);
  EXPECT_EQ(phases.first_send_ready, 20);
  EXPECT_EQ(phases.last_send_ready, 40);
  EXPECT_EQ(phases.last_send_posted, 45);
  EXPECT_EQ(phases.last_receive, 300);
  EXPECT_EQ(phases.last_unpack_done, 500);
  EXPECT_EQ(phases.total, 900);
}

// A send seen ready while the CPU was still posting the one before is charged only from then:
// the bulk strategies see every send ready at once and post them one after another.
TEST(ExchangePhases, ChargeEachSendFromWhenItCouldBePosted) {
  ExchangeTimeline timeline;
  timeline.sends = {send_seen_posted(100, 110), send_seen_posted(100, 130),
                    send_seen_posted(200, 204)};
  // 10 (from ready), 20 (from the previous post at 110), 4 (from ready, after a quiet time).
  EXPECT_EQ(phases_of(timeline).post_per_send, (10 + 20 + 4) / 3);
}

TEST(ExchangePhases, NoPostedSendLeavesTheCostUnrecorded) {
  ExchangeTimeline timeline;
  timeline.sends = {send_seen_posted(kNotRecorded, 10), SendTimeline{}};
  const ExchangePhases phases = phases_of(timeline);
  EXPECT_EQ(phases.post_per_send, kNotRecorded);
  EXPECT_EQ(phases.first_send_ready, kNotRecorded);
  EXPECT_EQ(phases.last_send_posted, 10);
}

}  // namespace
}  // namespace haloflag::halo
