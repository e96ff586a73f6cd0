// Internal: the set-up check that every pair of peers agrees on the messages between them.
//
// Each rank tells every rank it shares a message with (in either direction, by either side's
// config) the (tag, bytes) of what it sends to that rank and of what it expects from it, and
// compares both directions with the peer's lists. Both sides of a pair compare the same lists,
// so a disagreement is reported on both, before the first exchange: a size that differs, a tag
// that only one side lists, a different number of messages. Messages cut into pieces for MPI
// are compared piece by piece; where the two sides cut them differently (another piece size) or
// move the pieces differently (partitioned on one side only), that is reported once, naming the
// peer and a message, instead of every piece.
#pragma once

#include <mpi.h>

#include <chrono>

#include "haloflag/halo/exchange_config.hpp"
#include "haloflag/halo/mpi_pieces.hpp"
#include "message_names.hpp"
#include "transports/mpi/message_pieces.hpp"

namespace haloflag::halo::detail {

// Collective over `comm`: every rank of it must call this, once its own set-up succeeded.
// Throws ConfigError listing every disagreement this rank sees (peers out of range and tags
// listed twice for one peer included), and ExchangeError when a peer's lists did not arrive
// within `timeout` (naming the peer) or an MPI call failed. Its messages are matched before any
// exchange can begin, so they never meet halo messages on the same communicator.
// `transfer` is how this rank's pieces travel (resolved), where it cuts any.
void check_peers_agree(MPI_Comm comm, const PiecedMessages& pieced, const MessageNames& names,
                       std::chrono::nanoseconds timeout,
                       PieceTransfer transfer = PieceTransfer::point_to_point);

}  // namespace haloflag::halo::detail
