#include "haloflag/halo/mpi_pieces.hpp"

#include <mpi.h>

#include <string>

#include "haloflag/halo/errors.hpp"
#include "parse_named.hpp"

namespace haloflag::halo {

std::string_view to_string(PieceTransfer transfer) {
  switch (transfer) {
    case PieceTransfer::partitioned: return "partitioned";
    case PieceTransfer::point_to_point: return "p2p";
    default: return "auto";
  }
}

PieceTransfer parse_piece_transfer(std::string_view name) {
  constexpr PieceTransfer kTransfers[] = {PieceTransfer::automatic, PieceTransfer::partitioned,
                                          PieceTransfer::point_to_point};
  return detail::parse_named<PieceTransfer>(name, kTransfers, "piece transfer");
}

bool partitioned_communication_available() { return MPI_VERSION >= 4; }

PieceTransfer resolve_piece_transfer(PieceTransfer transfer) {
  if (transfer == PieceTransfer::automatic) {
    return partitioned_communication_available() ? PieceTransfer::partitioned
                                                 : PieceTransfer::point_to_point;
  }
  if (transfer == PieceTransfer::partitioned && !partitioned_communication_available()) {
    throw ConfigError("piece transfer partitioned needs MPI 4 partitioned communication, and this "
                      "build's MPI library implements MPI " + std::to_string(MPI_VERSION) + "." +
                      std::to_string(MPI_SUBVERSION) + "; use p2p or auto");
  }
  return transfer;
}

MessageCut cut_message(const Message& message, const MessageData& data, std::int64_t piece_bytes) {
  MessageCut cut;
  if (piece_bytes <= 0 || message.boxes.size() != 1 || message.bytes <= piece_bytes) return cut;
  const kernels::Box& box = message.boxes.front();
  // The outermost axis longer than one cell: its slabs are contiguous runs of the packed data.
  int axis = 2;
  while (axis > 0 && box.extent[axis] == 1) --axis;
  std::int64_t slab_cells = 1;
  for (int other = 0; other < 3; ++other) {
    if (other != axis) slab_cells *= box.extent[other];
  }
  cut.axis = axis;
  cut.units = box.extent[axis];
  cut.unit_bytes = slab_cells * data.cell_bytes();
  std::int64_t per_piece = piece_bytes / cut.unit_bytes;
  if (per_piece < 1) per_piece = 1;
  if ((cut.units + per_piece - 1) / per_piece > kMaxPiecesPerMessage) {
    per_piece = (cut.units + kMaxPiecesPerMessage - 1) / kMaxPiecesPerMessage;
  }
  cut.units_per_piece = per_piece;
  cut.pieces = static_cast<int>((cut.units + per_piece - 1) / per_piece);
  if (cut.pieces == 1) return MessageCut{};
  return cut;
}

}  // namespace haloflag::halo
