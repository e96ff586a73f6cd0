/// @file
/// Everything the model knows about a machine: the parameter sets of each link class, the
/// eager/rendezvous threshold, the pack/unpack table, optionally the usual rank placement and the
/// node transport's terms, and where the numbers came from. Files of this are described in
/// docs/model.md.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "haloflag/model/link_params.hpp"
#include "haloflag/model/pack_unpack_table.hpp"
#include "haloflag/model/rank_mapping.hpp"
#include "haloflag/model/schedule_params.hpp"

namespace haloflag::model {

/// Where a parameter file's numbers come from.
struct Provenance {
  std::string source;   ///< paper, tool or person the numbers come from
  std::string machine;  ///< the system they describe
  std::string date;     ///< when they were measured or written
  std::string units;    ///< a reminder of the units used in the file
  std::vector<std::string> notes;  ///< free-form remarks

  /// Equal in every field.
  bool operator==(const Provenance&) const = default;
};

/// A machine's model parameters, as a parameter file holds them.
struct MachineParams {
  Provenance provenance;  ///< where the numbers come from
  std::int64_t eager_threshold_bytes = 0;  ///< n <= threshold: eager
  std::optional<RankMapping> mapping;      ///< the placement to assume when none is given
  ProtocolParams<PostalParams> intra_socket;  ///< postal sets for ranks on one socket
  /// K-model sets for ranks on different sockets of one node
  ProtocolParams<KModelParams> inter_socket;
  ProtocolParams<KModelParams> inter_node;  ///< K-model sets for ranks on different nodes
  /// Messages within a node carried by the GPUs themselves; files without it predict MPI only.
  std::optional<NodeTransportParams> node_transport;
  PackUnpackTable pack_unpack;  ///< measured pack and unpack times by message size
  /// The per-strategy prediction's terms; files without them give the bound only.
  std::optional<ScheduleParams> schedule;

  /// Equal in every field.
  bool operator==(const MachineParams&) const = default;
};

}  // namespace haloflag::model
