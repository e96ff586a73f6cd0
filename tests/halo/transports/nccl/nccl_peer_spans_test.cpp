// The nccl strategy's buffer layout (halo/src/transports/nccl/peer_spans), plain host logic that
// needs no NCCL: each peer's messages lie together, ordered by tag on both sides so that a
// sender's span and its receiver's span hold the same messages in the same order, each span
// starts aligned, and no two messages overlap.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "haloflag/halo/peer_spans.hpp"

namespace {

namespace hh = haloflag::halo;
namespace hk = haloflag::kernels;

// A layout of `elements` doubles (one box of elements x 1 x 1, one variable).
hk::MessageLayout layout_of(int elements) {
  hk::MessageLayout layout{};
  layout.box_count = 1;
  layout.boxes[0] = {{0, 0, 0}, {elements, 1, 1}};
  layout.set_variables(1, 8);
  return layout;
}

hh::Message message(int peer, int tag, int elements) {
  hh::Message m;
  m.peer = peer;
  m.tag = tag;
  m.bytes = elements * static_cast<std::int64_t>(sizeof(double));
  return m;
}

// The layouts make_message_layouts would give `messages`: back to back in config order.
hh::MessageLayouts layouts_for(const hh::RankMessages& messages) {
  hh::MessageLayouts layouts;
  for (const auto* direction : {&messages.sends, &messages.recvs}) {
    auto& out = direction == &messages.sends ? layouts.sends : layouts.recvs;
    std::int64_t offset = 0;
    for (const hh::Message& m : *direction) {
      out.push_back(layout_of(static_cast<int>(m.bytes / 8)));
      out.back().place_at(offset);
      offset += m.bytes;
    }
  }
  return layouts;
}

TEST(NcclPeerSpans, EachPeersMessagesLieTogetherInTagOrderAligned) {
  hh::RankMessages messages;
  // Peers interleaved and tags out of order, as a config may list them.
  messages.sends = {message(3, 7, 5), message(1, 2, 4), message(3, 1, 9), message(1, 9, 1),
                    message(0, 4, 3)};
  messages.recvs = {message(1, 5, 2), message(3, 3, 6)};
  hh::MessageLayouts layouts = layouts_for(messages);
  const hh::PeerSpans spans = hh::arrange_by_peer(messages, layouts);

  ASSERT_EQ(spans.sends.size(), 3u);
  EXPECT_EQ(spans.sends[0].peer, 0);
  EXPECT_EQ(spans.sends[1].peer, 1);
  EXPECT_EQ(spans.sends[2].peer, 3);
  // Peer 1: tag 2 (4 elements), then tag 9 (1 element).
  EXPECT_EQ(spans.sends[1].messages, 2u);
  EXPECT_EQ(spans.sends[1].bytes, 5 * 8);
  EXPECT_EQ(layouts.sends[1].buffer_offset, spans.sends[1].offset);
  EXPECT_EQ(layouts.sends[3].buffer_offset, spans.sends[1].offset + 4 * 8);
  // Peer 3: tag 1 (index 2) before tag 7 (index 0).
  EXPECT_EQ(layouts.sends[2].buffer_offset, spans.sends[2].offset);
  EXPECT_EQ(layouts.sends[0].buffer_offset, spans.sends[2].offset + 9 * 8);
  for (const hh::PeerSpan& span : spans.sends) {
    EXPECT_EQ(span.offset % hh::kPeerSpanAlignment, 0) << "peer " << span.peer;
  }
  EXPECT_EQ(layouts.send_buffer_bytes, spans.sends.back().offset + spans.sends.back().bytes);
  ASSERT_EQ(spans.recvs.size(), 2u);
  EXPECT_EQ(spans.recvs[0].offset, 0);
  EXPECT_EQ(spans.recvs[1].offset, hh::kPeerSpanAlignment);
  EXPECT_EQ(layouts.recv_buffer_bytes, hh::kPeerSpanAlignment + 6 * 8);
  EXPECT_EQ(hh::peers_of(spans), (std::vector<int>{0, 1, 3}));
}

// What rank A sends to B, in B's span for A, is what B unpacks from it: both sides order by tag,
// whatever order their configs list the messages in.
TEST(NcclPeerSpans, SenderAndReceiverAgreeOnTheOrder) {
  hh::RankMessages a;  // rank 0
  hh::RankMessages b;  // rank 1
  a.sends = {message(1, 30, 3), message(1, 10, 7), message(1, 20, 2)};
  b.recvs = {message(0, 20, 2), message(0, 30, 3), message(0, 10, 7)};
  hh::MessageLayouts a_layouts = layouts_for(a);
  hh::MessageLayouts b_layouts = layouts_for(b);
  const hh::PeerSpans a_spans = hh::arrange_by_peer(a, a_layouts);
  const hh::PeerSpans b_spans = hh::arrange_by_peer(b, b_layouts);
  ASSERT_EQ(a_spans.sends.size(), 1u);
  ASSERT_EQ(b_spans.recvs.size(), 1u);
  EXPECT_EQ(a_spans.sends[0].bytes, b_spans.recvs[0].bytes);
  for (std::size_t m = 0; m < a.sends.size(); ++m) {
    const auto match = std::find_if(b.recvs.begin(), b.recvs.end(), [&](const hh::Message& r) {
      return r.tag == a.sends[m].tag;
    });
    ASSERT_NE(match, b.recvs.end());
    const auto r = static_cast<std::size_t>(match - b.recvs.begin());
    EXPECT_EQ(a_layouts.sends[m].buffer_offset - a_spans.sends[0].offset,
              b_layouts.recvs[r].buffer_offset - b_spans.recvs[0].offset)
        << "tag " << a.sends[m].tag;
  }
}

TEST(NcclPeerSpans, ARankWithoutMessagesHasNoSpans) {
  hh::RankMessages none;
  hh::MessageLayouts layouts;
  const hh::PeerSpans spans = hh::arrange_by_peer(none, layouts);
  EXPECT_TRUE(spans.sends.empty());
  EXPECT_TRUE(spans.recvs.empty());
  EXPECT_EQ(layouts.send_buffer_bytes, 0);
  EXPECT_TRUE(hh::peers_of(spans).empty());
}

}  // namespace
