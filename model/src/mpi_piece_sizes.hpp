// Internal: the sizes the prediction charges when the flag strategies send long messages to MPI
// peers in pieces (haloflag/halo/mpi_pieces.hpp; docs/model.md, "Pieces over MPI"). The pieces
// are cut by the exchange's own rule, halo::cut_message, so the model sees the pieces the
// exchange moves.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "haloflag/halo/exchange_config.hpp"

namespace haloflag::model::detail {

// What bounds the start and the end of a rank's pipeline of pieces over MPI. A message that
// travels whole is its own first and last piece.
struct MpiPieceSizes {
  bool sends_cut = false;               // at least one send travels in pieces
  bool recvs_cut = false;               // at least one receive travels in pieces
  std::int64_t longest_first_send = 0;  // bytes: the longest first piece among the sends
  std::int64_t longest_last_recv = 0;   // bytes: the longest last piece among the receives
  // Messages longer than a piece that travel whole all the same: no single box to cut (or the
  // config has no `data` line to size its slabs).
  int long_uncut = 0;
};

// The sizes for a rank's MPI messages cut into pieces of at most `piece_bytes` (> 0).
MpiPieceSizes mpi_piece_sizes(const std::vector<const halo::Message*>& sends,
                              const std::vector<const halo::Message*>& recvs,
                              const std::optional<halo::MessageData>& data,
                              std::int64_t piece_bytes);

}  // namespace haloflag::model::detail
