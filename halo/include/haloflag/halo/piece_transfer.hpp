/// @file
/// The options of messages in pieces over MPI (AdvancedOptions::mpi_piece_bytes and
/// piece_transfer; docs/transports.md, "Pieces over MPI"): how the pieces travel and the default
/// piece size. How a message is cut is the MPI transport's own (mpi_pieces.hpp).
#pragma once

#include <cstdint>
#include <string_view>

namespace haloflag::halo {

/// How the pieces of one message travel.
enum class PieceTransfer {
  /// partitioned where the MPI library has MPI 4 partitioned communication, else point_to_point
  automatic,
  /// one MPI_Psend_init/MPI_Precv_init per message, a partition per slab: MPI_Pready_range when
  /// a piece is packed, MPI_Parrived to see it land
  partitioned,
  /// a persistent send and receive (or MPI_Isend/MPI_Irecv) per piece, each with its own tag
  point_to_point,
};

/// The transfer's name.
std::string_view to_string(PieceTransfer transfer);
/// Throws std::invalid_argument naming the valid choices ("auto", "partitioned", "p2p").
PieceTransfer parse_piece_transfer(std::string_view name);

/// Whether this build's MPI library has MPI 4 partitioned communication.
bool partitioned_communication_available();
/// What `transfer` becomes here: automatic resolved; partitioned where the library lacks it
/// throws ConfigError naming the library's MPI version.
PieceTransfer resolve_piece_transfer(PieceTransfer transfer);

/// AdvancedOptions::mpi_piece_bytes by default (docs/exchange.md, "What to set when").
inline constexpr std::int64_t kDefaultMpiPieceBytes = 32768;

}  // namespace haloflag::halo
