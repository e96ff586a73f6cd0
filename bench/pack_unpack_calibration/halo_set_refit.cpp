#include "halo_set_refit.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <utility>

#include <nlohmann/json.hpp>

#include "calibration_report.hpp"

namespace haloflag::bench {

namespace {

using Json = nlohmann::json;

class RawReader {
 public:
  explicit RawReader(std::string path) : path_(std::move(path)) {}

  [[noreturn]] void fail(const std::string& field, const std::string& reason) const {
    throw std::invalid_argument(path_ + ": " + field + ": " + reason);
  }

  Json load() const {
    std::ifstream in(path_);
    if (!in) fail("file", "cannot be opened");
    std::stringstream text;
    text << in.rdbuf();
    Json raw = Json::parse(text.str(), nullptr, false);
    if (raw.is_discarded() || !raw.is_object()) fail("file", "not a JSON object");
    return raw;
  }

  // raw[key] as T, or a failure naming `field`.
  template <class T>
  T get(const Json& raw, const char* key, const std::string& field) const {
    if (!raw.contains(key)) fail(field, "missing");
    try {
      return raw.at(key).get<T>();
    } catch (const Json::exception&) {
      fail(field, "has the wrong type");
    }
  }

  TimedHaloSet halo_set(const Json& entry, const std::string& field) const {
    TimedHaloSet set;
    set.cube = get<std::int64_t>(entry, "cube", field + ".cube");
    set.field_extent = get<halo::Index3>(entry, "field_extent", field + ".field_extent");
    set.vars = get<int>(entry, "vars", field + ".vars");
    set.bytes = get<std::int64_t>(entry, "bytes", field + ".bytes");
    set.messages = get<int>(entry, "messages", field + ".messages");
    const auto work = get<std::string>(entry, "work", field + ".work");
    if (work != "pack" && work != "unpack") fail(field + ".work", "'" + work + "' is no work");
    set.work = work == "pack" ? MessageWork::pack : MessageWork::unpack;
    const auto place = get<std::string>(entry, "place", field + ".place");
    if (place != to_string(BufferPlace::pinned) && place != to_string(BufferPlace::device)) {
      fail(field + ".place", "'" + place + "' is no buffer place");
    }
    set.place = place == to_string(BufferPlace::pinned) ? BufferPlace::pinned : BufferPlace::device;
    // Every rank's runs, rank after rank; rank_median_us has one entry per rank.
    const auto ranks = get<std::vector<double>>(entry, "rank_median_us", field + ".rank_median_us")
                           .size();
    const auto samples = get<std::vector<double>>(entry, "samples_us", field + ".samples_us");
    if (ranks == 0 || samples.empty() || samples.size() % ranks != 0) {
      fail(field + ".samples_us", std::to_string(samples.size()) + " runs do not split among " +
                                      std::to_string(ranks) + " ranks");
    }
    const std::size_t runs = samples.size() / ranks;
    for (std::size_t r = 0; r < ranks; ++r) {
      const auto first = samples.begin() + static_cast<std::ptrdiff_t>(r * runs);
      set.launch_us.emplace_back(first, first + static_cast<std::ptrdiff_t>(runs));
    }
    return set;
  }

  // Ranks per GPU while the sets were timed, which only files of sets timed at once record.
  int sharers(const Json& raw) const {
    if (!raw.contains("fused") || !raw.at("fused").is_object() || raw.at("fused").empty()) {
      fail("fused", "missing: the run fitted no halo sets");
    }
    int sharers = 0;
    for (const auto& [name, fit] : raw.at("fused").items()) {
      if (!fit.contains("ranks_per_gpu")) {
        fail("fused." + name + ".ranks_per_gpu",
             "missing: this run timed its halo sets one rank at a time, so the runs of different "
             "ranks are not the same runs and none has a slowest rank");
      }
      const std::string field = "fused." + name + ".ranks_per_gpu";
      const int here = get<int>(fit, "ranks_per_gpu", field);
      if (here < 1) fail(field, std::to_string(here) + " is not at least 1");
      if (sharers != 0 && here != sharers) {
        fail(field, std::to_string(here) + ", where another fit has " + std::to_string(sharers));
      }
      sharers = here;
    }
    return sharers;
  }

 private:
  std::string path_;
};

}  // namespace

RefitTable refit_halo_sets(const std::string& raw_path, const std::string& command) {
  const RawReader reader(raw_path);
  const Json raw = reader.load();
  const auto format = reader.get<std::string>(raw, "format", "format");
  if (format != kRawFormat) reader.fail("format", "'" + format + "', not " + kRawFormat);
  const int version = reader.get<int>(raw, "version", "version");
  if (version < 1 || version > kRawFormatVersion) {
    reader.fail("version", std::to_string(version) + " is not 1 to " +
                               std::to_string(kRawFormatVersion));
  }
  if (!raw.contains("halo_sets") || !raw.at("halo_sets").is_array() ||
      raw.at("halo_sets").empty()) {
    reader.fail("halo_sets", "missing or empty: the run timed no halo sets");
  }
  const int sharers = reader.sharers(raw);

  RefitTable refit;
  std::size_t index = 0;
  for (const Json& entry : raw.at("halo_sets")) {
    refit.sets.push_back(reader.halo_set(entry, "halo_sets[" + std::to_string(index++) + "]"));
  }
  try {
    refit.fits = fit_halo_sets(refit.sets, sharers);
  } catch (const std::invalid_argument& error) {
    reader.fail("halo_sets", error.what());
  }
  if (!raw.contains("table")) reader.fail("table", "missing");
  refit.table = model::parse_pack_unpack_table(raw.at("table").dump(), raw_path + ": table");
  refit.table.fused = fused_kernel_times(refit.fits);
  std::vector<std::string>& notes = refit.table.provenance.notes;
  std::erase_if(notes, [](const std::string& note) { return note.starts_with("fused"); });
  const std::string measured =
      raw.contains("run") && raw.at("run").contains("date") && raw.at("run").at("date").is_string()
          ? " (measured " + raw.at("run").at("date").get<std::string>() + ")"
          : std::string();
  notes.push_back("fused: refitted by '" + command + "' from the halo sets of " +
                  std::filesystem::path(raw_path).filename().string() + measured + ", " +
                  std::to_string(sharers) + " rank(s) per GPU; " + kHaloSetFitMethod);
  add_clamp_notes(refit.fits, refit.table.provenance);
  return refit;
}

}  // namespace haloflag::bench
