// Internal: a rank's messages as the exchange moves them, with the long ones to MPI peers cut
// into pieces (haloflag/halo/mpi_pieces.hpp). Each piece is a message of its own to the kernels,
// the flags and the CPU state machine: a sub-box of the message's box, laid right after the
// piece before it in the buffers, so the pieces of one message fill its span in order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <set>
#include <vector>

#include "haloflag/halo/exchange_config.hpp"
#include "haloflag/halo/mpi_pieces.hpp"
#include "wire_origin.hpp"

namespace haloflag::halo::detail {

struct PiecedMessages {
  // What moves, in the config's order with each cut message's pieces in its place, each with
  // the config's tag (what Exchange::messages() shows and the node transport matches).
  RankMessages messages;
  // The same with the tags MPI matches: wire_tag() for messages to MPI peers once pieces are
  // on, so that the pieces of one message never match each other's receives.
  RankMessages wire;
  std::vector<WireOrigin> sends;  // one per entry of messages.sends
  std::vector<WireOrigin> recvs;
  // The piece size agreed with each peer (by rank; 0 where messages go whole).
  std::vector<std::int64_t> piece_bytes_by_peer;

  bool any_cut() const;
};

// The tag piece `piece` of a message with `tag` travels with.
constexpr int wire_tag(int tag, int piece) { return tag * kMaxPiecesPerMessage + piece; }

// Cuts the messages to and from `mpi_peers` for pieces of at most `piece_bytes` (0: none cut,
// every tag kept). `ranks` is the communicator's size and `tag_ub` its MPI_TAG_UB: a wire tag
// beyond it is a ConfigError naming the message.
PiecedMessages cut_into_pieces(const RankMessages& messages, const MessageData& data,
                               std::int64_t piece_bytes, const std::set<int>& mpi_peers,
                               int ranks, int tag_ub);

// Blocks of the per-message stream kernels (stream_notify's or resident's pack and unpack grids
// together) for what moves: a block per message, and for each message of at least `long_bytes`
// bytes send_team - 1 more when it is sent and recv_team - 1 when it is received.
std::int64_t stream_kernel_blocks(const RankMessages& moved, std::int64_t long_bytes,
                                  int send_team, int recv_team);

}  // namespace haloflag::halo::detail
