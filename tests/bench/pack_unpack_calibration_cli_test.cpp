// haloflag_calibrate_pack_unpack under mpiexec on the host backend: the table it writes is read
// back by the model's reader with positive times for the sizes of the config and the cubes, the
// slowest shape of each size and the fused kernels' fits, the raw file beside it keeps every run
// of every rank and every halo set, --sizes and --table-time do what they say, --refit fits a raw
// file's halo sets again, and bad options and raw files end with a message and a non-zero exit.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "haloflag/model/params_file.hpp"
#include "run_command.hpp"

#if !defined(HALOFLAG_CALIBRATE_PACK_UNPACK) || !defined(HALOFLAG_MPIEXEC) || \
    !defined(HALOFLAG_COMB_CONFIG_DIR)
#error "tests/bench/CMakeLists.txt names the tool, mpiexec and the shipped configs"
#endif

namespace {

namespace fs = std::filesystem;

const fs::path kConfigs = HALOFLAG_COMB_CONFIG_DIR;
const fs::path kScratch = fs::temp_directory_path() /
                          ("haloflag_pack_unpack_calibration_cli_test_" + std::to_string(::getpid()));

using haloflag::test::RunResult;
using haloflag::test::shell_quoted;

constexpr int kIterations = 5;

// `mpiexec -n RANKS haloflag_calibrate_pack_unpack <arguments>` (the environment allowing
// oversubscription comes from the test's CTest properties).
RunResult run_tool(int ranks, const std::string& arguments) {
  return haloflag::test::run_command(
      HALOFLAG_MPIEXEC,
      std::string(HALOFLAG_MPIEXEC_NUMPROC_FLAG) + " " + std::to_string(ranks) + " " +
          shell_quoted(HALOFLAG_CALIBRATE_PACK_UNPACK) + " " + arguments,
      kScratch);
}

// A small host run: the 200-cube 2-rank config, cubes of 4 and 8 cells, and their halo sets.
std::string small_run(const fs::path& table) {
  return "--backend host --config " + shell_quoted(kConfigs / "comb_200_np2_reduced.cfg") +
         " --cubes 4,8 --halo-cubes 4,8 --iterations " + std::to_string(kIterations) +
         " --warmup 1 --out " + shell_quoted(table);
}

std::vector<std::int64_t> sizes_of(const haloflag::model::PackUnpackTable& table) {
  std::vector<std::int64_t> sizes;
  for (const auto& point : table.points()) sizes.push_back(point.bytes);
  return sizes;
}

bool contains(const std::vector<std::int64_t>& sizes, std::int64_t bytes) {
  return std::find(sizes.begin(), sizes.end(), bytes) != sizes.end();
}

class PackUnpackCalibrationCli : public testing::Test {
 protected:
  void SetUp() override { fs::create_directories(kScratch); }
  void TearDown() override { fs::remove_all(kScratch); }
};

TEST_F(PackUnpackCalibrationCli, TwoRanksWriteATableTheModelReadsAndTheRawRuns) {
  const fs::path table_path = kScratch / "table.json";
  const RunResult r = run_tool(2, small_run(table_path));
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("CPU threads emulate the GPU"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("verified and timed"), std::string::npos) << r.out;

  const haloflag::model::PackUnpackTableFile file =
      haloflag::model::read_pack_unpack_table_file(table_path);
  const std::vector<std::int64_t> sizes = sizes_of(file.table);
  // Corners, edges and faces of the config (24, 1200, 60000 B) and of the cubes of 4 and 8.
  for (const std::int64_t bytes : {24, 96, 192, 384, 1200, 1536, 60000}) {
    EXPECT_TRUE(contains(sizes, bytes)) << bytes << " B missing";
  }
  for (const auto& point : file.table.points()) {
    EXPECT_GT(point.pack_seconds, 0.0) << point.bytes;
    EXPECT_GT(point.unpack_seconds, 0.0) << point.bytes;
  }
  EXPECT_NE(file.provenance.machine.find("host backend"), std::string::npos)
      << file.provenance.machine;
  EXPECT_NE(file.provenance.source.find("haloflag_calibrate_pack_unpack"), std::string::npos);
  const auto& notes = file.provenance.notes;
  EXPECT_TRUE(std::any_of(notes.begin(), notes.end(), [](const std::string& note) {
    return note == "raw measurements: table.raw.json";
  }));
  EXPECT_TRUE(std::any_of(notes.begin(), notes.end(), [](const std::string& note) {
    return note.find("not GPU times") != std::string::npos;
  }));

  const nlohmann::json raw =
      nlohmann::json::parse(haloflag::test::read_text(kScratch / "table.raw.json"));
  EXPECT_EQ(raw["format"], "haloflag-calibration-pack-unpack");
  EXPECT_EQ(raw["run"]["ranks"], 2);
  EXPECT_EQ(raw["backend"]["emulated_on_cpu"], true);
  EXPECT_EQ(raw["options"]["iterations"], kIterations);
  EXPECT_EQ(raw["sizes"].size(), sizes.size());
  ASSERT_FALSE(raw["shapes"].empty());
  for (const nlohmann::json& shape : raw["shapes"]) {
    ASSERT_EQ(shape["ranks"].size(), 2u) << shape.dump();
    for (const nlohmann::json& rank : shape["ranks"]) {
      EXPECT_EQ(rank["block_samples_us"].size(), static_cast<std::size_t>(kIterations));
      EXPECT_EQ(rank["launch_samples_us"].size(), static_cast<std::size_t>(kIterations));
    }
  }
}

TEST_F(PackUnpackCalibrationCli, QuickRunHasTheSlowestShapesAndTheFusedFits) {
  const fs::path table_path = kScratch / "quick.json";
  const RunResult r = run_tool(2, "--backend host --quick --out " + shell_quoted(table_path));
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("halo sets"), std::string::npos) << r.out;
  (void)haloflag::model::read_pack_unpack_table_file(table_path);  // the model accepts it

  // Written for every entry, never below the time pooled over the size's shapes.
  const nlohmann::json table = nlohmann::json::parse(haloflag::test::read_text(table_path));
  ASSERT_FALSE(table["entries"].empty());
  for (const nlohmann::json& entry : table["entries"]) {
    ASSERT_TRUE(entry.contains("pack_slowest_us")) << entry.dump();
    ASSERT_TRUE(entry.contains("unpack_slowest_us")) << entry.dump();
    EXPECT_GE(entry["pack_slowest_us"].get<double>(), entry["pack_us"].get<double>())
        << entry.dump();
    EXPECT_GE(entry["unpack_slowest_us"].get<double>(), entry["unpack_us"].get<double>())
        << entry.dump();
  }
  ASSERT_TRUE(table.contains("fused")) << table.dump();
  EXPECT_EQ(table["fused"].size(), 4u);
  for (const char* key : {"pack_pinned", "unpack_pinned", "pack_device", "unpack_device"}) {
    SCOPED_TRACE(key);
    ASSERT_TRUE(table["fused"].contains(key));
    EXPECT_GT(table["fused"][key]["latency_s"].get<double>(), 0.0);
    EXPECT_GT(table["fused"][key]["bytes_per_s"].get<double>(), 0.0);
  }

  // Quick mode: the halo sets of the cubes of 8 and 16, each work and place, 10 runs per rank.
  const nlohmann::json raw =
      nlohmann::json::parse(haloflag::test::read_text(kScratch / "quick.raw.json"));
  ASSERT_EQ(raw["halo_sets"].size(), 8u) << raw["halo_sets"].dump();
  for (const nlohmann::json& set : raw["halo_sets"]) {
    EXPECT_TRUE(set["cube"] == 8 || set["cube"] == 16) << set["cube"];
    EXPECT_EQ(set["messages"], 26);
    EXPECT_GT(set["bytes"].get<std::int64_t>(), 0);
    ASSERT_EQ(set["samples_us"].size(), 2u * 10u);
    // The fit's time: the median over the runs of each run's slower rank (rank 0's runs first).
    const auto samples = set["samples_us"].get<std::vector<double>>();
    std::vector<double> slowest;
    for (std::size_t run = 0; run < 10; ++run) {
      slowest.push_back(std::max(samples[run], samples[10 + run]));
    }
    std::sort(slowest.begin(), slowest.end());
    EXPECT_DOUBLE_EQ(set["slowest_rank_median_us"].get<double>(),
                     (slowest[4] + slowest[5]) / 2.0);
  }
  EXPECT_EQ(raw["version"], 2);
  EXPECT_EQ(raw["fused"].size(), 4u);

  // The fused kernels' GB/s beside the copy within memory (a memcpy here) and no peer copy.
  EXPECT_NE(r.out.find("rates: GB/s"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("peer copy: no peer GPU"), std::string::npos) << r.out;
  EXPECT_EQ(raw["rates"]["peer_copy"], "no peer GPU: host backend");
  ASSERT_EQ(raw["rates"]["cubes"].size(), 2u) << raw["rates"].dump();
  for (const nlohmann::json& cube : raw["rates"]["cubes"]) {
    for (const char* key : {"pack_device", "unpack_device", "pack_pinned", "unpack_pinned"}) {
      EXPECT_GT(cube["fused"][key]["gb_per_s"].get<double>(), 0.0) << key << cube.dump();
    }
    EXPECT_GT(cube["device_copy"]["gb_per_s"].get<double>(), 0.0) << cube.dump();
    EXPECT_TRUE(cube["peer_copy"].is_null()) << cube.dump();
    EXPECT_EQ(cube["samples_us"]["device_copy"].size(), 2u);  // one list per rank
  }
  EXPECT_EQ(raw["table"]["fused"], table["fused"]);

  // --refit of that raw file measures nothing and gives the same table: the fits agree up to the
  // raw file's rounding of each run to the nanosecond.
  const fs::path refit_path = kScratch / "refit.json";
  const RunResult refit = run_tool(1, "--refit " + shell_quoted(kScratch / "quick.raw.json") +
                                          " --out " + shell_quoted(refit_path));
  ASSERT_EQ(refit.exit_code, 0) << refit.out << refit.err;
  EXPECT_NE(refit.out.find("fitted again (nothing measured)"), std::string::npos) << refit.out;
  EXPECT_FALSE(fs::exists(kScratch / "refit.raw.json"));
  const auto measured = haloflag::model::read_pack_unpack_table_file(table_path);
  const auto refitted = haloflag::model::read_pack_unpack_table_file(refit_path);
  EXPECT_EQ(refitted.table, measured.table);
  ASSERT_TRUE(measured.fused && refitted.fused);
  const auto near = [](const haloflag::model::FusedKernelTime& a,
                       const haloflag::model::FusedKernelTime& b) {
    EXPECT_NEAR(a.latency, b.latency, 1e-3 * b.latency);
    EXPECT_NEAR(a.bandwidth, b.bandwidth, 1e-3 * b.bandwidth);
  };
  near(refitted.fused->pack_pinned, measured.fused->pack_pinned);
  near(refitted.fused->unpack_pinned, measured.fused->unpack_pinned);
  near(refitted.fused->pack_device, measured.fused->pack_device);
  near(refitted.fused->unpack_device, measured.fused->unpack_device);
  const std::vector<std::string>& notes = refitted.provenance.notes;
  EXPECT_EQ(std::count_if(notes.begin(), notes.end(),
                          [](const std::string& note) { return note.starts_with("fused:"); }),
            1);
  EXPECT_TRUE(std::any_of(notes.begin(), notes.end(), [](const std::string& note) {
    return note.find("refitted by") != std::string::npos &&
           note.find("quick.raw.json") != std::string::npos;
  }));
}

// A refit takes only a raw file of this tool whose halo sets every rank timed at once.
TEST_F(PackUnpackCalibrationCli, RefitRefusesWhatItCannotFit) {
  const auto write = [](const std::string& name, const nlohmann::json& json) {
    const fs::path path = kScratch / name;
    std::ofstream(path) << json.dump();
    return path;
  };
  const nlohmann::json set = {{"cube", 8},         {"field_extent", {10, 10, 10}},
                              {"vars", 3},         {"bytes", 1000},
                              {"messages", 26},    {"work", "pack"},
                              {"place", "pinned"}, {"rank_median_us", {1.0, 1.0}},
                              {"samples_us", {1.0, 2.0, 3.0}}};
  nlohmann::json raw = {{"format", "haloflag-calibration-pack-unpack"},
                        {"version", 2},
                        {"halo_sets", {set}},
                        {"fused", {{"pack_pinned", {{"ranks_per_gpu", 2}}}}}};
  nlohmann::json one_at_a_time = raw;
  one_at_a_time["fused"]["pack_pinned"].erase("ranks_per_gpu");
  nlohmann::json other_format = raw;
  other_format["format"] = "haloflag-halo-bench";
  nlohmann::json future = raw;
  future["version"] = 3;
  struct Case {
    std::string arguments;
    std::string message;
  };
  const std::string out = " --out " + shell_quoted(kScratch / "refit.json");
  const std::vector<Case> cases{
      {"--refit " + shell_quoted(write("uneven.json", raw)) + out,
       "uneven.json: halo_sets[0].samples_us: 3 runs do not split among 2 ranks"},
      {"--refit " + shell_quoted(write("one.json", one_at_a_time)) + out,
       "one.json: fused.pack_pinned.ranks_per_gpu: missing: this run timed its halo sets one "
       "rank at a time"},
      {"--refit " + shell_quoted(write("other.json", other_format)) + out,
       "other.json: format: 'haloflag-halo-bench', not haloflag-calibration-pack-unpack"},
      {"--refit " + shell_quoted(write("future.json", future)) + out,
       "future.json: version: 3 is not 1 to 2"},
      {"--refit " + shell_quoted(kScratch / "missing.raw.json") + out, "missing.raw.json"},
      {"--refit " + shell_quoted(write("quick.json", raw)) + " --quick" + out,
       "--quick excludes --refit"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.arguments);
    const RunResult r = run_tool(1, c.arguments);
    EXPECT_NE(r.exit_code, 0) << r.out;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(kScratch / "refit.json"));
  }
}

TEST_F(PackUnpackCalibrationCli, SizesAndTableTimeChooseWhatTheTableHolds) {
  const fs::path table_path = kScratch / "launch.json";
  const RunResult r = run_tool(1, small_run(table_path) + " --sizes 24,60000 --table-time launch");
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const auto file = haloflag::model::read_pack_unpack_table_file(table_path);
  EXPECT_EQ(sizes_of(file.table), (std::vector<std::int64_t>{24, 60000}));

  // The table holds the mean launch-to-synchronize time the raw file summarises.
  const nlohmann::json raw =
      nlohmann::json::parse(haloflag::test::read_text(kScratch / "launch.raw.json"));
  ASSERT_EQ(raw["sizes"].size(), 2u);
  EXPECT_EQ(raw["options"]["table_time"], "launch");
  const double launch_mean_us = raw["sizes"][1]["unpack"]["launch_us"]["mean"].get<double>();
  EXPECT_NEAR(file.table.points()[1].unpack_seconds, launch_mean_us * 1e-6, 1e-12);
}

TEST_F(PackUnpackCalibrationCli, BadOptionsEndWithAMessage) {
  const std::string table = shell_quoted(kScratch / "bad.json");
  const std::string base = "--backend host --quick --out " + table;
  struct Case {
    std::string arguments;
    std::string message;
  };
  const std::vector<Case> cases{
      {base + " --iterations 0", "--iterations"},
      {base + " --backend tpu", "--backend"},
      {base + " --table-time fastest", "--table-time"},
      {base + " --cubes 0", "--cubes"},
      {base + " --halo-cubes 0", "--halo-cubes"},
      {base + " --halo-cubes 8",
       "--halo-cubes needs at least 2 sides for the fit, or '' for none"},
      {base + " --sizes 25", "--sizes 25: no message of the configs and cubes has this size"},
      {base + " --config " + shell_quoted(kScratch / "missing.cfg"), "missing.cfg"},
      {"--backend host --quick --out " + shell_quoted(kScratch / "no_such_folder" / "t.json"),
       "does not exist"},
      {"--backend host --quick", "--out"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.arguments);
    const RunResult r = run_tool(1, c.arguments);
    EXPECT_NE(r.exit_code, 0) << r.out;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(kScratch / "bad.json"));
  }
  // With two ranks a bad value is printed once, not once per rank.
  const RunResult r = run_tool(2, base + " --sizes 25");
  EXPECT_EQ(r.exit_code, 1);
  const std::string message = "error: --sizes 25";
  const auto first = r.err.find(message);
  ASSERT_NE(first, std::string::npos) << r.err;
  EXPECT_EQ(r.err.find(message, first + 1), std::string::npos) << r.err;
}

}  // namespace
