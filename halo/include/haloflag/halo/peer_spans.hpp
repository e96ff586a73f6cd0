/// @file
/// Where each peer's messages lie in buffers moved one contiguous span per peer and direction:
/// the nccl strategy's, and any program that hands a whole peer's messages to one call (one
/// ncclSend per peer, one MPI_Isend per peer). The pack writes every message to a peer back to
/// back, and the receiver must expect them in the sender's order: both sides order a peer's
/// messages by tag (unique per pair and direction), so the order needs no agreement at run time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "haloflag/halo/exchange_config.hpp"
#include "haloflag/halo/message_layouts.hpp"

namespace haloflag::halo {

/// Each peer's span starts on this boundary: NCCL's copies take their fast path on aligned data.
inline constexpr std::int64_t kPeerSpanAlignment = 256;

/// One peer's messages of one direction, together in the buffer.
struct PeerSpan {
  int peer = 0;  ///< the rank at the other end
  std::int64_t offset = 0;  ///< bytes from the buffer's start
  std::int64_t bytes = 0;   ///< the peer's messages together
  std::size_t messages = 0;  ///< how many
};

/// Every peer's span of the send and the receive buffer.
struct PeerSpans {
  std::vector<PeerSpan> sends;  ///< by ascending peer
  std::vector<PeerSpan> recvs;  ///< by ascending peer
};

/// Lays the messages out by peer: rewrites each layout's buffer_offset and the buffers' sizes in
/// `layouts` (made from `messages` by make_message_layouts) and returns each peer's span.
PeerSpans arrange_by_peer(const RankMessages& messages, MessageLayouts& layouts);

/// The peers of either direction, ascending, each once.
std::vector<int> peers_of(const PeerSpans& spans);

}  // namespace haloflag::halo
