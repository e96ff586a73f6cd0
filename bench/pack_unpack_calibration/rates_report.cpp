#include "rates_report.hpp"

#include <optional>
#include <string>

#include "sample_summary.hpp"

namespace haloflag::bench {

namespace {

using Json = nlohmann::ordered_json;

double gb_per_s(std::int64_t bytes, double us) {
  return us > 0.0 ? static_cast<double>(bytes) / us * 1e-3 : 0.0;
}

// The slowest-rank median of a cube's fused set, if it was timed.
std::optional<double> fused_us(const std::vector<TimedHaloSet>& sets, std::int64_t cube,
                               MessageWork work, BufferPlace place) {
  for (const TimedHaloSet& set : sets) {
    if (set.cube == cube && set.work == work && set.place == place) {
      return slowest_rank_median_us(set);
    }
  }
  return std::nullopt;
}

struct FusedColumn {
  const char* name;
  MessageWork work;
  BufferPlace place;
};

constexpr FusedColumn kColumns[] = {
    {"pack_device", MessageWork::pack, BufferPlace::device},
    {"unpack_device", MessageWork::unpack, BufferPlace::device},
    {"pack_pinned", MessageWork::pack, BufferPlace::pinned},
    {"unpack_pinned", MessageWork::unpack, BufferPlace::pinned},
};

std::string rate_text(std::int64_t bytes, std::optional<double> us, int width) {
  char text[32];
  if (!us) {
    std::snprintf(text, sizeof text, "%*s", width, "-");
  } else {
    std::snprintf(text, sizeof text, "%*.1f", width, gb_per_s(bytes, *us));
  }
  return text;
}

Json rate_json(std::int64_t bytes, std::optional<double> us) {
  if (!us) return nullptr;
  return {{"median_us", *us}, {"gb_per_s", gb_per_s(bytes, *us)}};
}

}  // namespace

void print_rates(std::FILE* out, const std::vector<TimedHaloSet>& sets, const CopyRates& copies) {
  if (copies.cubes.empty()) return;
  std::fprintf(out, "\nrates: GB/s = one rank's halo bytes / the slowest rank's median time\n"
                    "%6s %10s | %11s %13s %11s %13s | %11s %11s\n",
               "cube", "bytes", "pack device", "unpack device", "pack pinned", "unpack pinned",
               "device copy", "peer copy");
  for (const TimedCopies& cube : copies.cubes) {
    std::string fused;
    for (const FusedColumn& column : kColumns) {
      const int width = column.work == MessageWork::pack ? 11 : 13;
      fused += rate_text(cube.bytes, fused_us(sets, cube.cube, column.work, column.place), width);
      fused += ' ';
    }
    const std::optional<double> peer =
        cube.peer_us.empty() ? std::nullopt
                             : std::optional<double>(slowest_copy_median_us(cube.peer_us));
    std::fprintf(out, "%6lld %10lld | %s| %s %s\n", static_cast<long long>(cube.cube),
                 static_cast<long long>(cube.bytes), fused.c_str(),
                 rate_text(cube.bytes, slowest_copy_median_us(cube.device_us), 11).c_str(),
                 rate_text(cube.bytes, peer, 11).c_str());
  }
  std::fprintf(out, "fused: the fused kernels (pack into / unpack from a buffer in device or "
                    "pinned memory); device copy: %s; peer copy: %s\n",
               copies.device_copy.c_str(),
               copies.cubes.front().peer_us.empty()
                   ? copies.peer.c_str()
                   : ("cudaMemcpyPeerAsync to " + copies.peer).c_str());
}

Json rates_json(const std::vector<TimedHaloSet>& sets, const CopyRates& copies) {
  Json json;
  json["method"] = "GB/s = one rank's halo bytes / the median over the runs of each run's slowest "
                   "rank; copies and fused kernels both launch to synchronize on the host";
  json["device_copy"] = copies.device_copy;
  json["peer_copy"] = copies.peer;
  Json cubes = Json::array();
  for (const TimedCopies& cube : copies.cubes) {
    Json entry;
    entry["cube"] = cube.cube;
    entry["bytes"] = cube.bytes;
    Json fused = Json::object();
    for (const FusedColumn& column : kColumns) {
      fused[column.name] =
          rate_json(cube.bytes, fused_us(sets, cube.cube, column.work, column.place));
    }
    entry["fused"] = std::move(fused);
    entry["device_copy"] = rate_json(cube.bytes, slowest_copy_median_us(cube.device_us));
    entry["peer_copy"] =
        cube.peer_us.empty() ? Json(nullptr)
                             : rate_json(cube.bytes, slowest_copy_median_us(cube.peer_us));
    Json samples;
    samples["device_copy"] = cube.device_us;  // every rank's runs, one list per rank
    samples["peer_copy"] = cube.peer_us;
    entry["samples_us"] = std::move(samples);
    cubes.push_back(std::move(entry));
  }
  json["cubes"] = std::move(cubes);
  return json;
}

}  // namespace haloflag::bench
