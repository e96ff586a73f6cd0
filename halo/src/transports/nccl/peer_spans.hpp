// Internal: where each peer's messages lie in the nccl strategy's buffers. NCCL moves one
// contiguous span per peer and direction, so the fused pack writes every message to a peer back
// to back, and the receiver must expect them in the sender's order: both sides order a peer's
// messages by tag (unique per pair and direction, which the set-up handshake checks), so the
// order needs no agreement at run time. Plain host logic, tested without NCCL.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "haloflag/halo/exchange_config.hpp"
#include "haloflag/halo/message_layouts.hpp"

namespace haloflag::halo::detail {

// Each peer's span starts on this boundary: NCCL's copies take their fast path on aligned data.
inline constexpr std::int64_t kPeerSpanAlignment = 256;

struct PeerSpan {
  int peer = 0;
  std::int64_t offset = 0;  // bytes from the buffer's start
  std::int64_t bytes = 0;   // the peer's messages together
  std::size_t messages = 0;
};

struct PeerSpans {
  std::vector<PeerSpan> sends;  // by ascending peer
  std::vector<PeerSpan> recvs;  // by ascending peer
};

// Lays the messages out by peer: rewrites each layout's buffer_offset and the buffers' sizes in
// `layouts` (made from `messages` by make_message_layouts) and returns each peer's span.
PeerSpans arrange_by_peer(const RankMessages& messages, MessageLayouts& layouts);

// The peers of either direction, ascending, each once.
std::vector<int> peers_of(const PeerSpans& spans);

}  // namespace haloflag::halo::detail
