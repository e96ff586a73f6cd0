// Building a full parameter file from calibration results: ping-pong (alpha, beta, threshold),
// concurrent bandwidth (R_Cb, R_Ci), a pack/unpack table and optionally the node transport's
// terms, optionally over a base file whose other link classes are kept.
#pragma once

#include <optional>
#include <string>

#include "calibration_files.hpp"
#include "haloflag/model/machine_params.hpp"
#include "haloflag/model/params_file.hpp"

namespace haloflag::model::calibration {

// Which link class the measurements describe; `all` sets every class from them (what a
// single-host run can give: a stand-in for the classes it could not reach).
enum class TargetClass { all, intra_socket, inter_socket, inter_node };

// Parses "all", "intra_socket", "inter_socket" or "inter_node"; throws std::invalid_argument.
TargetClass parse_target_class(const std::string& name);

struct MergeInputs {
  PingPongFit pingpong;
  ConcurrentFit concurrent;
  std::optional<PackUnpackTableFile> pack_unpack;  // required without a base
  std::string pack_unpack_source;
  std::optional<NodeFit> node;                     // else the base's node_transport, if any
  std::optional<MachineParams> base;               // required unless target is all
  std::string base_source;
  TargetClass target = TargetClass::all;
  std::optional<RankMapping> mapping;  // else the base's, else none
  std::string machine;                 // else the base's (when a class is kept) or the host
};

// The eager threshold always comes from the ping-pong. For each protocol the K-model rates come
// from the concurrent fit at the largest measured size on that protocol's side of the threshold;
// a side with no measured size borrows the other side's (noted in provenance.notes). Throws
// std::invalid_argument for missing inputs.
MachineParams merge_calibration(const MergeInputs& inputs);

}  // namespace haloflag::model::calibration
