#include "workload.hpp"

#include <filesystem>

#include "haloflag/bench/build_info.hpp"
#include "haloflag/bench/usage_error.hpp"
#include "haloflag/halo/config_file.hpp"
#include "haloflag/halo/config_from_geometry.hpp"
#include "haloflag/halo/errors.hpp"
#include "haloflag/halo/geometry.hpp"

namespace haloflag::bench {

namespace {

// The shipped 2-rank config: the paper's down-scaled runs (Fig. 14).
constexpr const char* kTwoRankDefault = "comb_configs/comb_200_np2_reduced.cfg";

halo::GeometrySpec spec_from(const GeometryArguments& arguments, int ranks) {
  halo::GeometrySpec spec;
  spec.global_size = arguments.size;
  spec.ranks = ranks;
  spec.divide = arguments.divide;
  spec.periodic = arguments.periodic;
  spec.ghost = arguments.ghost;
  spec.vars = arguments.vars;
  spec.element_bytes = arguments.element_bytes;
  spec.stencil = arguments.faces_only ? halo::Stencil::faces6 : halo::Stencil::all26;
  return spec;
}

std::string describe_data(const halo::ExchangeConfig& config) {
  if (!config.data) return "no data record";
  return std::to_string(config.data->vars) + " vars of " +
         std::to_string(config.data->element_bytes) + " B";
}

std::string describe_record(const halo::ExchangeConfig& config) {
  using halo::format_triple;
  if (!config.geometry) return "no geometry record; " + describe_data(config);
  const halo::GeometryRecord& record = *config.geometry;
  std::string text;
  if (record.reduced_from_rank) {
    text = "rank " + std::to_string(*record.reduced_from_rank) + "'s messages replayed by " +
           std::to_string(record.reduced_ranks) + " ranks; ";
  }
  text += "domain " + format_triple(record.global_size, 'x') + " on rank grid " +
          format_triple(record.divide, 'x') + ", periodic " + format_triple(record.periodic) +
          ", ghost " + format_triple(record.ghost) + ", " + describe_data(config) + ", " +
          std::to_string(halo::stencil_points(record.stencil)) + " neighbours";
  return text;
}

// The config with every value `element_bytes` bytes: each message's bytes recounted from its
// boxes, so a config of doubles serves a single-precision run of the same cells.
halo::ExchangeConfig with_element_bytes(halo::ExchangeConfig config, int element_bytes,
                                        const std::string& path) {
  if (!config.data || !config.data->variable_bytes.empty()) {
    throw UsageError("--element-bytes: " + path +
                     " has no data record of one element size to resize");
  }
  for (halo::RankMessages& rank : config.rank_messages) {
    for (auto* messages : {&rank.sends, &rank.recvs}) {
      for (halo::Message& message : *messages) {
        if (message.boxes.empty()) {
          throw UsageError("--element-bytes: " + path + " gives a message (peer " +
                           std::to_string(message.peer) + ", tag " +
                           std::to_string(message.tag) + ") no boxes to count its cells from");
        }
        std::int64_t cells = 0;
        for (const auto& box : message.boxes) cells += box.cells();
        message.bytes = cells * config.data->vars * element_bytes;
      }
    }
  }
  config.data->element_bytes = element_bytes;
  return config;
}

// element_bytes 0: the config's own.
Workload from_file(const std::filesystem::path& path, int ranks, bool is_default,
                   int element_bytes) {
  Workload workload;
  workload.config = halo::read_config_file(path);
  if (element_bytes != 0 &&
      element_bytes != workload.config.data.value_or(halo::MessageData{}).element_bytes) {
    workload.config = with_element_bytes(std::move(workload.config), element_bytes, path.string());
  }
  workload.config_file = path.string();
  workload.is_default = is_default;
  if (workload.config.ranks != ranks) {
    throw UsageError(path.string() + " is a config for " + std::to_string(workload.config.ranks) +
                     " ranks, but this run has " + std::to_string(ranks) + " (run it with mpiexec -n " +
                     std::to_string(workload.config.ranks) + ")");
  }
  workload.description = describe_record(workload.config);
  return workload;
}

Workload from_geometry(const GeometryArguments& arguments, int ranks, bool is_default) {
  Workload workload;
  try {
    const halo::Geometry geometry(spec_from(arguments, ranks));
    workload.geometry = geometry.spec();
    workload.config = halo::make_exchange_config(geometry);
  } catch (const halo::GeometryError& error) {
    throw UsageError("geometry for " + std::to_string(ranks) + " ranks: " + error.what());
  }
  workload.is_default = is_default;
  workload.description = describe_record(workload.config);
  return workload;
}

}  // namespace

Workload resolve_workload(const BenchOptions& options, int ranks) {
  const int element_bytes = options.element_bytes_given ? options.geometry.element_bytes : 0;
  if (!options.config_path.empty()) {
    return from_file(options.config_path, ranks, false, element_bytes);
  }
  if (options.geometry_given) return from_geometry(options.geometry, ranks, false);
  if (ranks == 2) return from_file(source_dir() / kTwoRankDefault, ranks, true, element_bytes);
  return from_geometry(GeometryArguments{}, ranks, true);
}

}  // namespace haloflag::bench
