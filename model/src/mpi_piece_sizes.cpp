#include "mpi_piece_sizes.hpp"

#include <algorithm>

#include "haloflag/halo/mpi_pieces.hpp"

namespace haloflag::model::detail {

namespace {

// The cut of one message; without the config's data its slabs have no size, so it goes whole.
halo::MessageCut cut(const halo::Message& message, const std::optional<halo::MessageData>& data,
                     std::int64_t piece_bytes) {
  return data ? halo::cut_message(message, *data, piece_bytes) : halo::MessageCut{};
}

}  // namespace

MpiPieceSizes mpi_piece_sizes(const std::vector<const halo::Message*>& sends,
                              const std::vector<const halo::Message*>& recvs,
                              const std::optional<halo::MessageData>& data,
                              std::int64_t piece_bytes) {
  MpiPieceSizes sizes;
  const auto count_uncut = [&](const halo::Message& m, const halo::MessageCut& c) {
    if (c.pieces == 1 && m.bytes > piece_bytes) ++sizes.long_uncut;
  };
  for (const halo::Message* m : sends) {
    const halo::MessageCut c = cut(*m, data, piece_bytes);
    count_uncut(*m, c);
    sizes.sends_cut = sizes.sends_cut || c.pieces > 1;
    sizes.longest_first_send =
        std::max(sizes.longest_first_send, c.pieces > 1 ? c.piece_bytes(0) : m->bytes);
  }
  for (const halo::Message* m : recvs) {
    const halo::MessageCut c = cut(*m, data, piece_bytes);
    count_uncut(*m, c);
    sizes.recvs_cut = sizes.recvs_cut || c.pieces > 1;
    sizes.longest_last_recv =
        std::max(sizes.longest_last_recv, c.pieces > 1 ? c.piece_bytes(c.pieces - 1) : m->bytes);
  }
  return sizes;
}

}  // namespace haloflag::model::detail
