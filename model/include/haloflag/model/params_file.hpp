/// @file
/// Parameter files (JSON, "haloflag-model-params" version 1) and pack/unpack table files
/// ("haloflag-pack-unpack-table" version 1): readers that reject anything they do not fully
/// understand, naming the file and key path, and writers. Every key: docs/model.md.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "haloflag/model/machine_params.hpp"
#include "haloflag/model/pack_unpack_table.hpp"
#include "haloflag/model/schedule_params.hpp"

namespace haloflag::model {

/// Format name of a parameter file.
inline constexpr std::string_view kParamsFormat = "haloflag-model-params";
/// Format name of a standalone pack/unpack table file.
inline constexpr std::string_view kPackUnpackTableFormat = "haloflag-pack-unpack-table";
inline constexpr int kParamsFormatVersion = 1;  ///< Format version written and accepted.
/// The units parameter files use, as written into their provenance.
inline constexpr std::string_view kStandardUnits =
    "seconds (alpha), seconds per byte (beta), bytes per second (R_Cb, R_Ci), bytes (sizes, "
    "thresholds), microseconds (pack_us, unpack_us)";

/// Reads and validates a whole parameter file. Every problem is collected as
/// "<source>: <key.path>: reason" (missing key, unknown key, wrong type, a rate, time or
/// threshold out of range, unsorted or duplicate table sizes, a bad mapping, a node_transport term
/// missing or not > 0); if there is any, throws ParamsError with all of them.
MachineParams parse_params(std::string_view json_text, const std::string& source_name);
/// Reads and validates the parameter file at `path` (see parse_params).
MachineParams read_params_file(const std::filesystem::path& path);

/// Writes the file form: a class whose eager and rendezvous sets are equal is written as one
/// set; reading it back gives an equal MachineParams.
std::string params_to_json(const MachineParams& params);
/// Writes `params` to the file at `path` (see params_to_json).
void write_params_file(const std::filesystem::path& path, const MachineParams& params);

/// Throws ParamsError "<source>: node_transport: missing key (...)" when the file read from
/// `source_name` has no node transport terms (what --transport node needs).
void require_node_transport(const MachineParams& params, const std::string& source_name);

/// A standalone pack/unpack table, as the GPU pack/unpack timing writes it.
struct PackUnpackTableFile {
  Provenance provenance;  ///< where the numbers come from
  PackUnpackTable table;  ///< the measured times
  /// The bulk strategies' fused kernels over whole halos, when the timing measured them.
  std::optional<FusedKernelTimes> fused;

  /// Equal in every field.
  bool operator==(const PackUnpackTableFile&) const = default;
};

/// Parses and validates a pack/unpack table file's text; throws ParamsError listing every problem.
PackUnpackTableFile parse_pack_unpack_table(std::string_view json_text,
                                            const std::string& source_name);
/// Reads and validates the pack/unpack table file at `path`.
PackUnpackTableFile read_pack_unpack_table_file(const std::filesystem::path& path);
/// The file form of `file`.
std::string pack_unpack_table_to_json(const PackUnpackTableFile& file);
/// Writes `file` to the file at `path`.
void write_pack_unpack_table_file(const std::filesystem::path& path,
                                  const PackUnpackTableFile& file);

}  // namespace haloflag::model
