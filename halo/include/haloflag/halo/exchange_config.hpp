// A communication config: for each rank, the messages it sends and receives (peer, tag, bytes
// and, when known, the field boxes they carry). This is what the paper extracted from Comb, and
// what the generator writes from a Geometry (see docs/comb_config_format.md for the file form).
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

struct Message {
  int peer = 0;
  int tag = 0;
  std::int64_t bytes = 0;
  // Local field boxes, packed in this order (optional: configs extracted from elsewhere may
  // carry only sizes). When present: sum of cells * MessageData::cell_bytes() == bytes.
  std::vector<kernels::Box> boxes;

  bool operator==(const Message&) const = default;
};

struct RankMessages {
  std::optional<Index3> field_extent;  // local field with ghosts; needed when boxes are given
  std::vector<Message> sends;
  std::vector<Message> recvs;

  bool operator==(const RankMessages&) const = default;
};

// How bytes relate to cells: every box is sent once per variable, each variable's element size
// per value.
struct MessageData {
  int vars = 1;
  int element_bytes = 8;            // every variable's element size, unless variable_bytes is set
  std::vector<int> variable_bytes;  // mixed types: each variable's element size (vars entries)

  int bytes_of(int var) const { return element_bytes_of(variable_bytes, element_bytes, var); }
  std::int64_t cell_bytes() const { return cell_bytes_of(variable_bytes, element_bytes, vars); }

  bool operator==(const MessageData&) const = default;
};

// The geometry a generated config came from (Comb's arguments). For a reduced config,
// reduced_from_rank names the rank of this geometry whose pattern every rank replays and
// reduced_ranks how many ranks replay it (reduced_peers.hpp: who sends to whom).
struct GeometryRecord {
  Index3 global_size{0, 0, 0};
  RankGrid divide{0, 0, 0};
  std::array<bool, 3> periodic{false, false, false};
  Index3 ghost{0, 0, 0};
  Stencil stencil = Stencil::all26;
  std::optional<int> reduced_from_rank;
  int reduced_ranks = 2;  // with reduced_from_rank: 2, 4 or 8 (files without the field: 2)

  bool operator==(const GeometryRecord&) const = default;
};

struct ExchangeConfig {
  int ranks = 0;
  std::optional<MessageData> data;
  std::optional<GeometryRecord> geometry;
  std::vector<RankMessages> rank_messages;  // index = rank; size() == ranks

  bool operator==(const ExchangeConfig&) const = default;
};

}  // namespace haloflag::halo
