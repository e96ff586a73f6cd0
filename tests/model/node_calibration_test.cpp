// The host side of haloflag_calibrate_node (its GPU measurements need a GPU; CI has none): the
// fit of copy latency and bandwidth and the flag latency from measurements, the calibration file
// it writes and the merge's reading of it, which puts node_transport into a parameter file.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

#include "calibration_files.hpp"
#include "haloflag/model/errors.hpp"
#include "haloflag/model/params_file.hpp"
#include "merge.hpp"
#include "node_transport_calibration.hpp"

#ifndef HALOFLAG_MODEL_PARAMS_DIR
#error "HALOFLAG_MODEL_PARAMS_DIR must name model/params"
#endif

namespace {

using namespace haloflag::model;
using namespace haloflag::model::calibration;
namespace fs = std::filesystem;
using Json = nlohmann::json;

const fs::path kScratch =
    fs::temp_directory_path() / ("haloflag_node_calibration_test_" + std::to_string(::getpid()));

SampleSummary exactly(double seconds) { return summarize({seconds, seconds, seconds}); }

// Copies that take exactly 1.2 us + n / 200 GB/s, and a 0.7 us flag.
NodeCalibration synthetic_calibration() {
  NodeCalibration calibration;
  calibration.date = "2026-01-01T00:00:00Z";
  calibration.host = "test host";
  calibration.gpu = "GPU 0: synthetic";
  calibration.clock = "none";
  calibration.command_line = "haloflag_calibrate_node --out node.json";
  for (std::int64_t bytes = 1024; bytes <= std::int64_t{4} << 20; bytes *= 2) {
    calibration.options.sizes.push_back(bytes);
    calibration.copies.push_back({bytes, exactly(1.2e-6 + static_cast<double>(bytes) / 2e11)});
  }
  calibration.flag_one_way_seconds = summarize({0.6e-6, 0.7e-6, 0.9e-6});
  return calibration;
}

class NodeCalibrationFile : public testing::Test {
 protected:
  void SetUp() override { fs::create_directories(kScratch); }
  void TearDown() override { fs::remove_all(kScratch); }

  fs::path write(const std::string& name, const std::string& text) {
    const fs::path path = kScratch / name;
    std::ofstream(path) << text;
    return path;
  }
};

TEST(NodeCalibrationFit, RecoversLatencyBandwidthAndFlag) {
  const NodeTransportFit fit = fit_node_transport(synthetic_calibration());
  EXPECT_NEAR(fit.params.copy_latency, 1.2e-6, 1e-12);
  EXPECT_NEAR(fit.params.copy_bandwidth, 2e11, 2e11 * 1e-6);
  EXPECT_DOUBLE_EQ(fit.params.flag_latency, 0.7e-6);  // the median
  EXPECT_FALSE(fit.copy.clamped);
  EXPECT_EQ(fit.copy.points, 13);
}

TEST(NodeCalibrationFit, RejectsTooLittle) {
  NodeCalibration one_size = synthetic_calibration();
  one_size.copies.resize(1);
  EXPECT_THROW(fit_node_transport(one_size), std::invalid_argument);
  NodeCalibration no_flag = synthetic_calibration();
  no_flag.flag_one_way_seconds = exactly(0.0);
  EXPECT_THROW(fit_node_transport(no_flag), std::invalid_argument);
}

TEST_F(NodeCalibrationFile, WrittenFileReadsBackForTheMerge) {
  const NodeCalibration calibration = synthetic_calibration();
  const NodeTransportFit fit = fit_node_transport(calibration);
  const fs::path path = write("node.json", node_calibration_to_json(calibration, fit));

  const NodeFit read = read_node_fit(path);
  EXPECT_EQ(read.params, fit.params);
  EXPECT_EQ(read.gpu, "GPU 0: synthetic");
  EXPECT_EQ(read.date, "2026-01-01T00:00:00Z");
  EXPECT_TRUE(read.notes.empty());

  // The raw measurements are kept, and the node_transport object is the parameter file's.
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  const Json json = Json::parse(text.str());
  EXPECT_EQ(json["format"], "haloflag-calibration-node");
  EXPECT_EQ(json["copy"]["measurements"].size(), 13u);
  EXPECT_DOUBLE_EQ(json["flag"]["one_way"]["p90_s"].get<double>(),
                   calibration.flag_one_way_seconds.p90);
  std::ifstream power9_in(fs::path(HALOFLAG_MODEL_PARAMS_DIR) / "power9_v100.json");
  std::stringstream power9_text;
  power9_text << power9_in.rdbuf();
  Json params = Json::parse(power9_text.str());
  params["node_transport"] = json["node_transport"];
  EXPECT_EQ(parse_params(params.dump(), "pasted").node_transport, fit.params);
}

TEST_F(NodeCalibrationFile, ProblemsAreNamed) {
  const NodeCalibration calibration = synthetic_calibration();
  Json json = Json::parse(node_calibration_to_json(calibration, fit_node_transport(calibration)));
  json["node_transport"]["copy_latency_s"] = -1;
  json["format"] = "haloflag-calibration-pingpong";
  const fs::path bad = write("bad.json", json.dump());
  try {
    read_node_fit(bad);
    FAIL() << "accepted";
  } catch (const ParamsError& error) {
    const std::string what = error.what();
    EXPECT_NE(what.find(bad.string() + ": node_transport.copy_latency_s: must be > 0"),
              std::string::npos)
        << what;
    EXPECT_NE(what.find(bad.string() + ": format: must be \"haloflag-calibration-node\""),
              std::string::npos)
        << what;
  }
  json.erase("node_transport");
  json["format"] = "haloflag-calibration-node";
  const fs::path missing = write("missing.json", json.dump());
  try {
    read_node_fit(missing);
    FAIL() << "accepted";
  } catch (const ParamsError& error) {
    EXPECT_NE(std::string(error.what()).find(missing.string() + ": node_transport: missing key"),
              std::string::npos)
        << error.what();
  }
}

MergeInputs merge_inputs() {
  MergeInputs inputs;
  inputs.pingpong.source = "pingpong.json";
  inputs.pingpong.threshold_bytes = 65536;
  inputs.pingpong.method = "given";
  inputs.pingpong.postal = ProtocolParams<PostalParams>::both({2e-6, 1e-10});
  inputs.concurrent.source = "concurrent.json";
  inputs.concurrent.sizes = {{262144, 1e10, 5e9}};
  inputs.pack_unpack = read_pack_unpack_table_file(fs::path(HALOFLAG_MODEL_PARAMS_DIR) /
                                                   "pack_unpack_power9_v100.json");
  inputs.pack_unpack_source = "pack_unpack_power9_v100.json";
  return inputs;
}

TEST(NodeCalibrationMerge, NodeTermsGoIntoTheParameterFile) {
  MergeInputs inputs = merge_inputs();
  EXPECT_FALSE(merge_calibration(inputs).node_transport.has_value());

  inputs.node = NodeFit{"node.json", "GPU 0: synthetic", "2026-01-01T00:00:00Z",
                        NodeTransportParams{1.2e-6, 2e11, 0.7e-6}, {"node copy fit clamped: x"}};
  const MachineParams merged = merge_calibration(inputs);
  ASSERT_TRUE(merged.node_transport.has_value());
  EXPECT_EQ(*merged.node_transport, (NodeTransportParams{1.2e-6, 2e11, 0.7e-6}));
  EXPECT_NE(merged.provenance.source.find("node node.json"), std::string::npos)
      << merged.provenance.source;
  const auto& notes = merged.provenance.notes;
  EXPECT_NE(std::find(notes.begin(), notes.end(), "node copy fit clamped: x"), notes.end());
  EXPECT_EQ(parse_params(params_to_json(merged), "merged"), merged);

  // A base file's terms are kept when no node calibration is given.
  MergeInputs over_base = merge_inputs();
  over_base.base = merged;
  over_base.base_source = "base.json";
  over_base.target = TargetClass::inter_node;
  const MachineParams kept = merge_calibration(over_base);
  EXPECT_EQ(kept.node_transport, merged.node_transport);
  EXPECT_NE(std::find(kept.provenance.notes.begin(), kept.provenance.notes.end(),
                      "node_transport kept from base.json"),
            kept.provenance.notes.end());
}

}  // namespace
