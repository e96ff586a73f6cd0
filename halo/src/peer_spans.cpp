#include "haloflag/halo/peer_spans.hpp"

#include <algorithm>
#include <numeric>

namespace haloflag::halo {

namespace {

std::int64_t aligned(std::int64_t offset) {
  return (offset + kPeerSpanAlignment - 1) / kPeerSpanAlignment * kPeerSpanAlignment;
}

// One direction: sets the offsets of `layouts`, returns the spans and the buffer's size.
std::vector<PeerSpan> arrange(const std::vector<Message>& messages,
                              std::vector<kernels::MessageLayout>& layouts,
                              std::int64_t& buffer_bytes) {
  std::vector<std::size_t> order(messages.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    if (messages[a].peer != messages[b].peer) return messages[a].peer < messages[b].peer;
    return messages[a].tag < messages[b].tag;
  });
  std::vector<PeerSpan> spans;
  std::int64_t offset = 0;
  for (const std::size_t m : order) {
    if (spans.empty() || spans.back().peer != messages[m].peer) {
      offset = aligned(offset);
      spans.push_back({messages[m].peer, offset, 0, 0});
    }
    layouts[m].place_at(offset);
    offset += layouts[m].bytes();
    spans.back().bytes += layouts[m].bytes();
    ++spans.back().messages;
  }
  buffer_bytes = offset;
  return spans;
}

}  // namespace

PeerSpans arrange_by_peer(const RankMessages& messages, MessageLayouts& layouts) {
  PeerSpans spans;
  spans.sends = arrange(messages.sends, layouts.sends, layouts.send_buffer_bytes);
  spans.recvs = arrange(messages.recvs, layouts.recvs, layouts.recv_buffer_bytes);
  return spans;
}

std::vector<int> peers_of(const PeerSpans& spans) {
  std::vector<int> peers;
  for (const auto* direction : {&spans.sends, &spans.recvs}) {
    for (const PeerSpan& span : *direction) peers.push_back(span.peer);
  }
  std::sort(peers.begin(), peers.end());
  peers.erase(std::unique(peers.begin(), peers.end()), peers.end());
  return peers;
}

}  // namespace haloflag::halo
