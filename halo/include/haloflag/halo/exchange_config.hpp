/// @file
/// A communication config: for each rank, the messages it sends and receives (peer, tag, bytes
/// and, when known, the field boxes they carry). This is what the paper extracted from Comb, and
/// what the generator writes from a Geometry (see docs/comb_config_format.md for the file form).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "haloflag/halo/element_sizes.hpp"
#include "haloflag/halo/index3.hpp"
#include "haloflag/halo/stencil.hpp"
#include "haloflag/kernels/box.hpp"

namespace haloflag::halo {

/// One message: its peer, tag, size and, optionally, the field boxes it carries.
struct Message {
  int peer = 0;  ///< the rank at the other end
  int tag = 0;  ///< MPI tag
  std::int64_t bytes = 0;  ///< size in bytes
  /// Local field boxes, packed in this order (optional: configs extracted from elsewhere may
  /// carry only sizes). When present: sum of cells * MessageData::cell_bytes() == bytes.
  std::vector<kernels::Box> boxes;

  /// Equal in every field.
  bool operator==(const Message&) const = default;
};

/// The messages one rank sends and receives.
struct RankMessages {
  std::optional<Index3> field_extent;  ///< local field with ghosts; needed when boxes are given
  std::vector<Message> sends;  ///< messages this rank sends
  std::vector<Message> recvs;  ///< messages this rank receives

  /// Equal in every field.
  bool operator==(const RankMessages&) const = default;
};

/// How bytes relate to cells: every box is sent once per variable, each variable's element size
/// per value.
struct MessageData {
  int vars = 1;  ///< variables per cell
  int element_bytes = 8;            ///< every variable's element size, unless variable_bytes is set
  std::vector<int> variable_bytes;  ///< mixed types: each variable's element size (vars entries)

  /// Element size of variable `var`.
  int bytes_of(int var) const { return element_bytes_of(variable_bytes, element_bytes, var); }
  /// Bytes of one cell, all variables.
  std::int64_t cell_bytes() const { return cell_bytes_of(variable_bytes, element_bytes, vars); }

  /// Equal in every field.
  bool operator==(const MessageData&) const = default;
};

/// The geometry a generated config came from (Comb's arguments). For a reduced config,
/// reduced_from_rank names the rank of this geometry whose pattern every rank replays and
/// reduced_ranks how many ranks replay it (reduced_peers.hpp: who sends to whom).
struct GeometryRecord {
  Index3 global_size{0, 0, 0};  ///< cells of the whole domain per axis
  RankGrid divide{0, 0, 0};  ///< ranks per axis
  std::array<bool, 3> periodic{false, false, false};  ///< whether each axis wraps around
  Index3 ghost{0, 0, 0};  ///< ghost width per axis, in cells
  Stencil stencil = Stencil::all26;  ///< which neighbours exchange
  /// set for a reduced config: the rank whose pattern every rank replays
  std::optional<int> reduced_from_rank;
  int reduced_ranks = 2;  ///< with reduced_from_rank: 2, 4 or 8 (files without the field: 2)

  /// Equal in every field.
  bool operator==(const GeometryRecord&) const = default;
};

/// A whole communication config: every rank's messages, and optional data and geometry records.
struct ExchangeConfig {
  int ranks = 0;  ///< number of ranks
  std::optional<MessageData> data;  ///< how bytes relate to cells, when known
  std::optional<GeometryRecord> geometry;  ///< the geometry it was generated from, when known
  std::vector<RankMessages> rank_messages;  ///< index = rank; size() == ranks

  /// Equal in every field.
  bool operator==(const ExchangeConfig&) const = default;
};

}  // namespace haloflag::halo
