// Checks the files the calibration executables wrote under mpiexec in quick mode (CTest fixture
// model_calibration_files, see CMakeLists.txt): the fields are there, the fitted values are
// positive, the raw measurements are kept, and the merged parameter file reads back and predicts.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "haloflag/halo/config_file.hpp"
#include "haloflag/model/params_file.hpp"
#include "haloflag/model/prediction.hpp"

#ifndef HALOFLAG_CALIBRATION_OUTPUT_DIR
#error "HALOFLAG_CALIBRATION_OUTPUT_DIR must name the folder the calibration tests write to"
#endif

namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

const fs::path kOutput = HALOFLAG_CALIBRATION_OUTPUT_DIR;

Json read_json(const fs::path& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path.string() + ": missing (did the fixture tests run?)");
  std::stringstream text;
  text << in.rdbuf();
  return Json::parse(text.str());
}

void expect_positive(const Json& object, const char* key) {
  ASSERT_TRUE(object.contains(key)) << key << " missing in " << object.dump();
  ASSERT_TRUE(object[key].is_number()) << key;
  EXPECT_GT(object[key].get<double>(), 0.0) << key;
}

TEST(CalibrationOutput, PingPongFile) {
  const Json json = read_json(kOutput / "pingpong.json");
  EXPECT_EQ(json["format"], "haloflag-calibration-pingpong");
  EXPECT_EQ(json["version"], 1);
  for (const char* key : {"tool", "date", "mpi_library", "mpi_settings", "ranks", "hosts"}) {
    EXPECT_TRUE(json["run"].contains(key)) << key;
  }
  EXPECT_EQ(json["run"]["ranks"], 2);
  EXPECT_TRUE(json["options"]["quick"].get<bool>());
  const Json& measurements = json["measurements"];
  ASSERT_GE(measurements.size(), 10u);
  EXPECT_EQ(measurements.front()["bytes"], 8);
  for (const Json& m : measurements) {
    for (const char* key : {"median_s", "p10_s", "p90_s", "min_s", "max_s"}) {
      expect_positive(m["one_way"], key);
    }
  }
  const Json& fit = json["fit"];
  EXPECT_TRUE(fit["method"] == "detected" || fit["method"] == "none") << fit["method"];
  expect_positive(fit, "threshold_bytes");
  for (const char* side : {"eager", "rendezvous"}) {
    SCOPED_TRACE(side);
    expect_positive(fit[side], "alpha");
    expect_positive(fit[side], "beta");
    expect_positive(fit[side], "points");
  }
}

TEST(CalibrationOutput, BulkExchangeFile) {
  const Json json = read_json(kOutput / "bulk_exchange.json");
  EXPECT_EQ(json["format"], "haloflag-calibration-bulk-exchange");
  EXPECT_EQ(json["options"]["messages"], 6);
  ASSERT_GE(json["measurements"].size(), 2u);
  for (const Json& m : json["measurements"]) {
    EXPECT_EQ(m["moved_bytes"].get<std::int64_t>(), 2 * 6 * m["message_bytes"].get<std::int64_t>());
    expect_positive(m["slowest_rank"], "median_s");
  }
  expect_positive(json["fit"], "alpha");
  expect_positive(json["fit"], "beta");
}

TEST(CalibrationOutput, ConcurrentFile) {
  const Json json = read_json(kOutput / "concurrent.json");
  EXPECT_EQ(json["format"], "haloflag-calibration-concurrent");
  EXPECT_TRUE(json["flows_emulated"].get<bool>());  // 2 ranks: one pair
  EXPECT_EQ(json["pairs_available"], 1);
  ASSERT_GE(json["sizes"].size(), 1u);
  for (const Json& size : json["sizes"]) {
    expect_positive(size, "bytes");
    ASSERT_GE(size["measurements"].size(), 2u);
    for (const Json& m : size["measurements"]) {
      expect_positive(m["aggregate_bandwidth"], "median_bytes_per_s");
      expect_positive(m["round_time"], "median_s");
    }
    expect_positive(size["fit"], "R_Cb");
    expect_positive(size["fit"], "R_Ci");
  }
}

TEST(CalibrationOutput, MergedParameterFileReadsBackAndPredicts) {
  using namespace haloflag::model;
  const MachineParams params = read_params_file(kOutput / "params.json");
  EXPECT_GT(params.intra_socket.eager.alpha, 0.0);
  EXPECT_GT(params.inter_node.rendezvous.r_ci, 0.0);
  EXPECT_EQ(params.pack_unpack.points().size(), 4u);
  ASSERT_TRUE(params.mapping.has_value());
  EXPECT_EQ(*params.mapping, RankMapping::consecutive(2, 1));
  EXPECT_NE(params.provenance.source.find("haloflag_calibrate_merge"), std::string::npos);
  // The node transport's terms from the hand-written node calibration fixture (data/).
  ASSERT_TRUE(params.node_transport.has_value());
  EXPECT_EQ(*params.node_transport, (NodeTransportParams{1.2e-6, 2e11, 7e-7}));

  const auto config =
      haloflag::halo::read_config_file(fs::path(HALOFLAG_COMB_CONFIG_DIR) / "comb_200_np2_reduced.cfg");
  const ExchangePrediction prediction = predict_exchange(config, params, *params.mapping);
  EXPECT_TRUE(std::isfinite(prediction.bound));
  EXPECT_GT(prediction.bound, 0.0);
  std::printf("[ model    ] comb_200_np2_reduced.cfg with this host's calibration: %.3f us\n",
              prediction.bound * 1e6);
}

}  // namespace
