// Parameter files and pack/unpack table files: strict readers (every problem named by key path)
// and writers that produce what the readers accept.
#include "haloflag/model/params_file.hpp"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <stdexcept>
#include <utility>

#include "haloflag/model/errors.hpp"
#include "json_fields.hpp"
#include "node_transport_fields.hpp"
#include "schedule_fields.hpp"

namespace haloflag::model {

namespace {

using detail::Json;
using detail::ObjectReader;
using detail::Problems;
using OrderedJson = nlohmann::ordered_json;

constexpr double kMicro = 1e-6;
// Pack/unpack times a table may hold, in microseconds: a picosecond to 11.6 days, far beyond
// any measurement on both sides, and inside the range where seconds and the written
// 12-digit microseconds (to_written_microseconds) stay normal, finite doubles.
constexpr double kMinTableMicroseconds = 1e-6;
constexpr double kMaxTableMicroseconds = 1e12;

void check_format(ObjectReader& top, std::string_view format) {
  top.expect_string("format", format);
  if (const auto version = top.integer("version", 0)) {
    if (*version != kParamsFormatVersion) {
      top.problems().add("version", "must be " + std::to_string(kParamsFormatVersion) +
                                        " (got " + std::to_string(*version) + ")");
    }
  }
}

Provenance read_provenance(ObjectReader& top) {
  Provenance provenance;
  auto reader = top.object("provenance");
  if (!reader) return provenance;
  provenance.source = reader->string("source").value_or("");
  provenance.machine = reader->string("machine").value_or("");
  provenance.date = reader->string("date").value_or("");
  provenance.units = reader->string("units").value_or("");
  provenance.notes = reader->string_list("notes", /*required=*/false).value_or(std::vector<std::string>{});
  reader->finish();
  return provenance;
}

// The head of both kinds of file: their format and version, then their provenance.
Provenance read_head(ObjectReader& top, std::string_view format) {
  check_format(top, format);
  return read_provenance(top);
}

std::optional<PostalParams> read_postal(ObjectReader& set) {
  const auto alpha = set.positive_number("alpha");
  const auto beta = set.positive_number("beta");
  set.finish();
  if (!alpha || !beta) return std::nullopt;
  return PostalParams{*alpha, *beta};
}

std::optional<KModelParams> read_kmodel(ObjectReader& set) {
  const auto alpha = set.positive_number("alpha");
  const auto r_cb = set.positive_number("R_Cb");
  const auto r_ci = set.positive_number("R_Ci");
  set.finish();
  if (!alpha || !r_cb || !r_ci) return std::nullopt;
  return KModelParams{*alpha, *r_cb, *r_ci};
}

// A class holds one set (used for both protocols) or an "eager" and a "rendezvous" set.
template <class Params, class ReadSet>
std::optional<ProtocolParams<Params>> read_class(ObjectReader& top, std::string_view key,
                                                 ReadSet read_set) {
  auto reader = top.object(key);
  if (!reader) return std::nullopt;
  if (reader->has("eager") || reader->has("rendezvous")) {
    auto eager_reader = reader->object("eager");
    auto rendezvous_reader = reader->object("rendezvous");
    std::optional<Params> eager;
    std::optional<Params> rendezvous;
    if (eager_reader) eager = read_set(*eager_reader);
    if (rendezvous_reader) rendezvous = read_set(*rendezvous_reader);
    reader->finish();
    if (!eager || !rendezvous) return std::nullopt;
    return ProtocolParams<Params>{*eager, *rendezvous};
  }
  const std::optional<Params> set = read_set(*reader);  // finishes the reader
  if (!set) return std::nullopt;
  return ProtocolParams<Params>::both(*set);
}

std::optional<RankMapping> read_mapping(ObjectReader& top) {
  auto reader = top.object("mapping", /*required=*/false);
  if (!reader) return std::nullopt;
  Problems& problems = reader->problems();
  const auto placement = reader->string("placement");
  std::optional<RankMapping> mapping;
  if (placement == "consecutive") {
    const auto per_node = reader->integer("ranks_per_node", 1);
    const auto per_socket = reader->integer("ranks_per_socket", 1);
    const auto nodes = reader->integer("nodes", 1, /*required=*/false);
    if (per_node && per_socket) {
      if (*per_node % *per_socket != 0) {
        problems.add(reader->path_of("ranks_per_node"),
                     std::to_string(*per_node) + " is not a multiple of ranks_per_socket (" +
                         std::to_string(*per_socket) + ")");
      } else if (*per_node <= std::numeric_limits<int>::max() &&
                 (!nodes || *nodes <= std::numeric_limits<int>::max())) {
        std::optional<int> node_count;
        if (nodes) node_count = static_cast<int>(*nodes);
        mapping = RankMapping::consecutive(static_cast<int>(*per_node),
                                           static_cast<int>(*per_socket), node_count);
      } else {
        problems.add(reader->path(), "counts are too large");
      }
    }
  } else if (placement == "explicit") {
    std::vector<RankLocation> locations;
    bool ok = true;
    if (const Json* list = reader->array("locations")) {
      if (list->empty()) {
        problems.add(reader->path_of("locations"), "must list at least one rank");
        ok = false;
      }
      for (std::size_t rank = 0; rank < list->size(); ++rank) {
        const std::string path = reader->path_of("locations") + "[" + std::to_string(rank) + "]";
        const Json& pair = (*list)[rank];
        if (!pair.is_array() || pair.size() != 2) {
          problems.add(path, "must be [node, socket] (got " + detail::describe(pair) + ")");
          ok = false;
          continue;
        }
        const auto node = detail::integer_at(pair[0], path + "[0]", 0, problems);
        const auto socket = detail::integer_at(pair[1], path + "[1]", 0, problems);
        if (!node || !socket || *node > std::numeric_limits<int>::max() ||
            *socket > std::numeric_limits<int>::max()) {
          ok = false;
          continue;
        }
        locations.push_back({static_cast<int>(*node), static_cast<int>(*socket)});
      }
    } else {
      ok = false;
    }
    if (ok) mapping = RankMapping::explicit_locations(std::move(locations));
  } else if (placement) {
    problems.add(reader->path_of("placement"),
                 "must be \"consecutive\" or \"explicit\" (got \"" + *placement + "\")");
  }
  reader->finish();
  return mapping;
}

std::optional<double> table_microseconds(ObjectReader& entry, std::string_view key) {
  const auto value = entry.positive_number(key);
  if (!value) return std::nullopt;
  if (*value < kMinTableMicroseconds || *value > kMaxTableMicroseconds) {
    char reason[128];
    std::snprintf(reason, sizeof reason, "must be between %g and %g microseconds (got %.17g)",
                  kMinTableMicroseconds, kMaxTableMicroseconds, *value);
    entry.problems().add(entry.path_of(key), reason);
    return std::nullopt;
  }
  return value;
}

// An optional slowest-shape time: 0 when absent; when given, at least the pooled time of the
// size (`pooled`, empty when that was bad). Empty when bad.
std::optional<double> slowest_microseconds(ObjectReader& entry, std::string_view key,
                                           const std::optional<double>& pooled) {
  if (!entry.has(key)) return 0.0;
  const auto value = table_microseconds(entry, key);
  if (!value) return std::nullopt;
  if (pooled && *value < *pooled) {
    char reason[160];
    std::snprintf(reason, sizeof reason,
                  "must be >= the pooled time of the size (got %.12g, pooled %.12g)", *value,
                  *pooled);
    entry.problems().add(entry.path_of(key), reason);
    return std::nullopt;
  }
  return value;
}

std::optional<PackUnpackTable> read_table(const Json* list, const std::string& path,
                                          Problems& problems) {
  if (list == nullptr) return std::nullopt;
  if (list->empty()) {
    problems.add(path, "must hold at least one entry");
    return std::nullopt;
  }
  std::vector<PackUnpackPoint> points;
  bool ok = true;
  std::optional<std::int64_t> previous_bytes;
  for (std::size_t i = 0; i < list->size(); ++i) {
    ObjectReader entry((*list)[i], path + "[" + std::to_string(i) + "]", problems);
    const auto bytes = entry.integer("bytes", 1);
    const auto pack_us = table_microseconds(entry, "pack_us");
    const auto unpack_us = table_microseconds(entry, "unpack_us");
    const auto pack_slowest_us = slowest_microseconds(entry, "pack_slowest_us", pack_us);
    const auto unpack_slowest_us = slowest_microseconds(entry, "unpack_slowest_us", unpack_us);
    entry.finish();
    if (bytes && previous_bytes) {
      if (*bytes == *previous_bytes) {
        problems.add(entry.path_of("bytes"), "duplicate size " + std::to_string(*bytes) +
                                                 " (also entry " + std::to_string(i - 1) + ")");
        ok = false;
      } else if (*bytes < *previous_bytes) {
        problems.add(entry.path_of("bytes"),
                     "sizes must be strictly increasing (" + std::to_string(*bytes) + " after " +
                         std::to_string(*previous_bytes) + ")");
        ok = false;
      }
    }
    if (bytes) previous_bytes = bytes;
    if (!bytes || !pack_us || !unpack_us || !pack_slowest_us || !unpack_slowest_us) {
      ok = false;
      continue;
    }
    points.push_back({*bytes, *pack_us * kMicro, *unpack_us * kMicro,
                      *pack_slowest_us * kMicro, *unpack_slowest_us * kMicro});
  }
  if (!ok) return std::nullopt;
  return PackUnpackTable(std::move(points));
}

// Microseconds as written: 12 significant digits, so that reading back gives the same seconds
// and the file shows 1.75 rather than 1.7499999999999998.
double to_written_microseconds(double seconds) {
  char text[64];
  std::snprintf(text, sizeof text, "%.12g", seconds / kMicro);
  return std::stod(text);
}

OrderedJson provenance_json(const Provenance& provenance) {
  OrderedJson json;
  json["source"] = provenance.source;
  json["machine"] = provenance.machine;
  json["date"] = provenance.date;
  json["units"] = provenance.units;
  if (!provenance.notes.empty()) json["notes"] = provenance.notes;
  return json;
}

// What read_head reads.
OrderedJson head_json(std::string_view format, const Provenance& provenance) {
  OrderedJson json;
  json["format"] = std::string(format);
  json["version"] = kParamsFormatVersion;
  json["provenance"] = provenance_json(provenance);
  return json;
}

OrderedJson table_json(const PackUnpackTable& table) {
  OrderedJson list = OrderedJson::array();
  for (const PackUnpackPoint& point : table.points()) {
    OrderedJson entry;
    entry["bytes"] = point.bytes;
    entry["pack_us"] = to_written_microseconds(point.pack_seconds);
    entry["unpack_us"] = to_written_microseconds(point.unpack_seconds);
    if (point.pack_slowest_seconds > 0.0) {
      entry["pack_slowest_us"] = to_written_microseconds(point.pack_slowest_seconds);
    }
    if (point.unpack_slowest_seconds > 0.0) {
      entry["unpack_slowest_us"] = to_written_microseconds(point.unpack_slowest_seconds);
    }
    list.push_back(std::move(entry));
  }
  return list;
}

OrderedJson set_json(const PostalParams& set) {
  OrderedJson json;
  json["alpha"] = set.alpha;
  json["beta"] = set.beta;
  return json;
}

OrderedJson set_json(const KModelParams& set) {
  OrderedJson json;
  json["alpha"] = set.alpha;
  json["R_Cb"] = set.r_cb;
  json["R_Ci"] = set.r_ci;
  return json;
}

template <class Params>
OrderedJson class_json(const ProtocolParams<Params>& sets) {
  if (sets.is_single_set()) return set_json(sets.eager);
  OrderedJson json;
  json["eager"] = set_json(sets.eager);
  json["rendezvous"] = set_json(sets.rendezvous);
  return json;
}

OrderedJson mapping_json(const RankMapping& mapping) {
  OrderedJson json;
  if (mapping.placement() == RankMapping::Placement::consecutive) {
    json["placement"] = "consecutive";
    json["ranks_per_node"] = mapping.ranks_per_node();
    json["ranks_per_socket"] = mapping.ranks_per_socket();
    if (mapping.nodes()) json["nodes"] = *mapping.nodes();
    return json;
  }
  json["placement"] = "explicit";
  OrderedJson locations = OrderedJson::array();
  for (const RankLocation& location : mapping.locations()) {
    locations.push_back({location.node, location.socket});
  }
  json["locations"] = std::move(locations);
  return json;
}

void write_text_file(const std::filesystem::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw ParamsError(path.string() + ": cannot open for writing");
  out << text;
  out.close();
  if (!out) throw ParamsError(path.string() + ": write failed");
}

}  // namespace

MachineParams parse_params(std::string_view json_text, const std::string& source_name) {
  detail::JsonDocument document(json_text, source_name);
  ObjectReader& top = document.top;
  MachineParams params;
  params.provenance = read_head(top, kParamsFormat);
  const auto threshold = top.integer("eager_threshold_bytes", 0);
  params.mapping = read_mapping(top);
  const auto intra_socket = read_class<PostalParams>(top, "intra_socket", read_postal);
  const auto inter_socket = read_class<KModelParams>(top, "inter_socket", read_kmodel);
  const auto inter_node = read_class<KModelParams>(top, "inter_node", read_kmodel);
  params.node_transport = detail::read_node_transport(top, /*required=*/false);
  const auto table = read_table(top.array("pack_unpack"), "pack_unpack", document.problems);
  params.schedule = detail::read_schedule(top);
  top.finish();
  document.problems.throw_if_any();

  params.eager_threshold_bytes = *threshold;
  params.intra_socket = *intra_socket;
  params.inter_socket = *inter_socket;
  params.inter_node = *inter_node;
  params.pack_unpack = *table;
  return params;
}

MachineParams read_params_file(const std::filesystem::path& path) {
  return parse_params(detail::read_text_file(path.string()), path.string());
}

std::string params_to_json(const MachineParams& params) {
  OrderedJson json = head_json(kParamsFormat, params.provenance);
  json["eager_threshold_bytes"] = params.eager_threshold_bytes;
  if (params.mapping) json["mapping"] = mapping_json(*params.mapping);
  json["intra_socket"] = class_json(params.intra_socket);
  json["inter_socket"] = class_json(params.inter_socket);
  json["inter_node"] = class_json(params.inter_node);
  if (params.node_transport) {
    json[detail::kNodeTransportKey] = detail::node_transport_json(*params.node_transport);
  }
  if (params.schedule) json[detail::kScheduleKey] = detail::schedule_json(*params.schedule);
  json["pack_unpack"] = table_json(params.pack_unpack);
  return json.dump(2) + "\n";
}

void write_params_file(const std::filesystem::path& path, const MachineParams& params) {
  write_text_file(path, params_to_json(params));
}

void require_node_transport(const MachineParams& params, const std::string& source_name) {
  if (params.node_transport) return;
  throw ParamsError(source_name + ": " + detail::kNodeTransportKey +
                    ": missing key (the node transport's terms copy_bandwidth_bytes_per_s, "
                    "copy_latency_s, flag_latency_s; haloflag_calibrate_node measures them)");
}

PackUnpackTableFile parse_pack_unpack_table(std::string_view json_text,
                                            const std::string& source_name) {
  detail::JsonDocument document(json_text, source_name);
  ObjectReader& top = document.top;
  PackUnpackTableFile file;
  file.provenance = read_head(top, kPackUnpackTableFormat);
  const auto table = read_table(top.array("entries"), "entries", document.problems);
  file.fused = detail::read_fused(top, /*required=*/false);
  top.finish();
  document.problems.throw_if_any();
  file.table = *table;
  return file;
}

PackUnpackTableFile read_pack_unpack_table_file(const std::filesystem::path& path) {
  return parse_pack_unpack_table(detail::read_text_file(path.string()), path.string());
}

std::string pack_unpack_table_to_json(const PackUnpackTableFile& file) {
  OrderedJson json = head_json(kPackUnpackTableFormat, file.provenance);
  json["entries"] = table_json(file.table);
  if (file.fused) json[detail::kFusedKey] = detail::fused_json(*file.fused);
  return json.dump(2) + "\n";
}

void write_pack_unpack_table_file(const std::filesystem::path& path,
                                  const PackUnpackTableFile& file) {
  write_text_file(path, pack_unpack_table_to_json(file));
}

}  // namespace haloflag::model
