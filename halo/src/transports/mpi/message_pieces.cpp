#include "transports/mpi/message_pieces.hpp"

#include <string>

#include "haloflag/halo/errors.hpp"

namespace haloflag::halo::detail {
namespace {

// Appends `messages`, cut where they go to an MPI peer, to `moved` (the config's tags) and to
// `wire` (the tags MPI matches), and their origins to `origins`.
void cut_list(const std::vector<Message>& messages, const char* kind, const MessageData& data,
              std::int64_t piece_bytes, const std::set<int>& mpi_peers, int tag_ub,
              std::vector<Message>& moved, std::vector<Message>& wire,
              std::vector<WireOrigin>& origins) {
  for (std::size_t i = 0; i < messages.size(); ++i) {
    const Message& m = messages[i];
    const bool over_mpi = piece_bytes > 0 && mpi_peers.contains(m.peer);
    const MessageCut cut = over_mpi ? cut_message(m, data, piece_bytes) : MessageCut{};
    if (over_mpi && static_cast<long long>(m.tag) * kMaxPiecesPerMessage + cut.pieces - 1 >
                        tag_ub) {
      throw ConfigError(std::string(kind) + " peer " + std::to_string(m.peer) + " tag " +
                        std::to_string(m.tag) + ": in pieces over MPI its tags reach " +
                        std::to_string(static_cast<long long>(m.tag) * kMaxPiecesPerMessage +
                                       cut.pieces - 1) +
                        ", beyond this MPI library's MPI_TAG_UB of " + std::to_string(tag_ub) +
                        " (tags are multiplied by " + std::to_string(kMaxPiecesPerMessage) +
                        "); use smaller tags or mpi_piece_bytes 0");
    }
    if (cut.pieces == 1) {
      moved.push_back(m);
      Message whole = m;
      if (over_mpi) whole.tag = wire_tag(m.tag, 0);
      wire.push_back(std::move(whole));
      origins.push_back({i, m.tag, 0, 1, 0, 0});
      continue;
    }
    for (int k = 0; k < cut.pieces; ++k) {
      Message piece = m;
      piece.bytes = cut.piece_bytes(k);
      kernels::Box& box = piece.boxes.front();
      box.begin[cut.axis] += k * cut.units_per_piece;
      box.extent[cut.axis] = cut.piece_units(k);
      moved.push_back(piece);
      piece.tag = wire_tag(m.tag, k);
      wire.push_back(std::move(piece));
      origins.push_back({i, m.tag, k, cut.pieces, k * cut.units_per_piece, cut.piece_units(k)});
    }
  }
}

}  // namespace

bool PiecedMessages::any_cut() const {
  for (const auto* list : {&sends, &recvs}) {
    for (const WireOrigin& origin : *list) {
      if (origin.pieces > 1) return true;
    }
  }
  return false;
}

PiecedMessages cut_into_pieces(const RankMessages& messages, const MessageData& data,
                               std::int64_t piece_bytes, const std::set<int>& mpi_peers,
                               int ranks, int tag_ub) {
  PiecedMessages pieced;
  pieced.messages.field_extent = messages.field_extent;
  cut_list(messages.sends, "send to", data, piece_bytes, mpi_peers, tag_ub,
           pieced.messages.sends, pieced.wire.sends, pieced.sends);
  cut_list(messages.recvs, "receive from", data, piece_bytes, mpi_peers, tag_ub,
           pieced.messages.recvs, pieced.wire.recvs, pieced.recvs);
  pieced.wire.field_extent = messages.field_extent;
  pieced.piece_bytes_by_peer.assign(static_cast<std::size_t>(ranks > 0 ? ranks : 0), 0);
  if (piece_bytes > 0) {
    for (int peer : mpi_peers) {
      if (peer >= 0 && peer < ranks) pieced.piece_bytes_by_peer[static_cast<std::size_t>(peer)] = piece_bytes;
    }
  }
  return pieced;
}

std::int64_t stream_kernel_blocks(const RankMessages& moved, std::int64_t long_bytes,
                                  int send_team, int recv_team) {
  std::int64_t blocks = 0;
  for (const Message& m : moved.sends) blocks += m.bytes >= long_bytes ? send_team : 1;
  for (const Message& m : moved.recvs) blocks += m.bytes >= long_bytes ? recv_team : 1;
  return blocks;
}

}  // namespace haloflag::halo::detail
