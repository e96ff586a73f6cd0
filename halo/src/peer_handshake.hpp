// Internal: the set-up check that every pair of peers agrees on the messages between them.
//
// Each rank tells every rank it shares a message with (in either direction, by either side's
// config) the (tag, bytes) of what it sends to that rank and of what it expects from it, and
// compares both directions with the peer's lists. Both sides of a pair compare the same lists,
// so a disagreement is reported on both, before the first exchange: a size that differs, a tag
// that only one side lists, a different number of messages. With the lists goes how each side
// moves them: where both reach each other over MPI and cut messages into pieces differently
// (another piece size, partitioned on one side only), that is reported too, naming the peer and
// a message.
#pragma once

#include <mpi.h>

#include <chrono>
#include <cstdint>
#include <vector>

#include "haloflag/halo/exchange_config.hpp"
#include "haloflag/halo/piece_transfer.hpp"
#include "message_names.hpp"

namespace haloflag::halo::detail {

// Collective over `comm`: every rank of it must call this, once its own set-up succeeded.
// Throws ConfigError listing every disagreement this rank sees (peers out of range and tags
// listed twice for one peer included), and ExchangeError when a peer's lists did not arrive
// within `timeout` (naming the peer) or an MPI call failed. Its messages are matched before any
// exchange can begin, so they never meet halo messages on the same communicator.
// How this rank moves its messages with one peer: over MPI or not (the node transport then
// checks the pair agrees), and the MPI pieces.
struct PeerCut {
  bool over_mpi = false;
  std::int64_t piece_bytes = 0;  // 0: whole
  std::int64_t cut = 0;          // this rank's messages with the peer that go in pieces
};

// What the transports add to the lists: how this rank moves its messages with each peer.
struct HandshakeTerms {
  std::vector<PeerCut> cuts;  // by peer rank; empty: nothing cut
  PieceTransfer transfer = PieceTransfer::point_to_point;  // how this rank's pieces travel
};

// `messages` are the config's (whole), `names` name them; `cuts` by peer rank (empty: nothing
// cut), and `transfer` how this rank's pieces travel (resolved).
void check_peers_agree(MPI_Comm comm, const RankMessages& messages, const MessageNames& names,
                       std::chrono::nanoseconds timeout, const std::vector<PeerCut>& cuts = {},
                       PieceTransfer transfer = PieceTransfer::point_to_point);

}  // namespace haloflag::halo::detail
