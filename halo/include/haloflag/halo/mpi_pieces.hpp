/// @file
/// Messages in pieces over MPI (AdvancedOptions::mpi_piece_bytes; docs/transports.md, "Pieces
/// over MPI"): the flag strategies cut each long message to an MPI peer into pieces that are
/// packed, signalled, sent, received and unpacked one by one, so that the GPU packs the next
/// piece while MPI copies this one and the receiver unpacks a piece while the next is copied.
///
/// A piece is a slab of the message's box: whole planes (or rows, or cells) along the box's
/// outermost axis that is more than one cell long, as many as fit in the piece size (at least
/// one). Sender and receiver cut their boxes, which have the same extents, by the same rule, so
/// piece k of a send is piece k of the matching receive.
#pragma once

#include <cstdint>

#include "haloflag/halo/exchange_config.hpp"
#include "haloflag/halo/piece_transfer.hpp"

namespace haloflag::halo {

/// A message is cut into at most this many pieces (a larger piece size is taken instead): piece
/// k travels with tag `tag * kMaxPiecesPerMessage + k`, which must stay within MPI_TAG_UB.
inline constexpr int kMaxPiecesPerMessage = 64;

/// How one message is cut. pieces == 1: it travels whole (it fits one piece, has several boxes,
/// or has no boxes).
struct MessageCut {
  int pieces = 1;  ///< number of pieces
  int axis = 2;                     ///< 0 x, 1 y, 2 z: the axis the slabs are stacked along
  std::int64_t unit_bytes = 0;      ///< bytes of one slab (one cell thick), all variables
  std::int64_t units = 0;           ///< slabs in the message
  std::int64_t units_per_piece = 0; ///< slabs per piece; the last piece may have fewer

  /// Slabs and bytes of piece k.
  std::int64_t piece_units(int k) const {
    const std::int64_t first = k * units_per_piece;
    const std::int64_t left = units - first;
    return left < units_per_piece ? left : units_per_piece;
  }
  /// Bytes of piece k.
  std::int64_t piece_bytes(int k) const { return piece_units(k) * unit_bytes; }
};

/// The cut of `message` for pieces of at most `piece_bytes` bytes (a slab larger than that is a
/// piece of its own); piece_bytes <= 0: whole.
MessageCut cut_message(const Message& message, const MessageData& data, std::int64_t piece_bytes);

}  // namespace haloflag::halo
