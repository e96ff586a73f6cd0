// The haloflag_model CLI: a shipped config prints the breakdown and the total and exits 0; JSON
// output holds the total; a bad parameter file or a config that does not fit the mapping exits
// non-zero with the key or the counts named on stderr; --transport picks the terms and says so.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "run_command.hpp"

#ifndef HALOFLAG_MODEL_CLI
#error "HALOFLAG_MODEL_CLI must name the haloflag_model executable"
#endif

namespace {

namespace fs = std::filesystem;

const fs::path kConfigs = HALOFLAG_COMB_CONFIG_DIR;
const fs::path kParams = HALOFLAG_MODEL_PARAMS_DIR;
const fs::path kScratch =
    fs::temp_directory_path() / ("haloflag_model_cli_test_" + std::to_string(::getpid()));

using haloflag::test::read_text;
using haloflag::test::RunResult;

RunResult run_cli(const std::string& arguments) {
  return haloflag::test::run_command(HALOFLAG_MODEL_CLI, arguments, kScratch);
}

std::string quoted(const fs::path& path) { return haloflag::test::shell_quoted(path); }

class ModelCli : public testing::Test {
 protected:
  void TearDown() override { fs::remove_all(kScratch); }
};

TEST_F(ModelCli, ShippedConfigPrintsTheTotal) {
  const RunResult r = run_cli(quoted(kConfigs / "comb_200_np64.cfg") + " --params " +
                              quoted(kParams / "power9_v100.json"));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("total lower bound: 35.998 us (rank 0)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("K_inter 24, K_total 26, k' 4"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("inter_socket"), std::string::npos) << r.out;
  EXPECT_TRUE(r.err.empty()) << r.err;
}

TEST_F(ModelCli, JsonOutputHoldsEveryRankAndTheTotal) {
  const fs::path json_path = kScratch / "prediction.json";
  fs::create_directories(kScratch);
  const RunResult r = run_cli(quoted(kConfigs / "comb_800_np64.cfg") + " -p " +
                              quoted(kParams / "power9_v100.json") + " --all-ranks --json " +
                              quoted(json_path));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json json = nlohmann::json::parse(read_text(json_path));
  EXPECT_NEAR(json["total"]["lower_bound_s"].get<double>(), 239.06232e-6, 1e-10);
  ASSERT_EQ(json["ranks"].size(), 64u);
  EXPECT_EQ(json["ranks"][5]["k_inter"], 24);
  EXPECT_EQ(json["ranks"][5]["sends"].size(), 26u);
  EXPECT_EQ(json["ranks"][0]["sends"][12]["class"], "inter_socket");
  EXPECT_EQ(json["ranks"][0]["sends"][12]["protocol"], "rendezvous");
}

TEST_F(ModelCli, MappingOptionsOverrideTheFile) {
  // One rank per node: the two-rank reduction becomes inter-node (N = 26/26 * 1 = 1).
  const RunResult r = run_cli(quoted(kConfigs / "comb_200_np2_reduced.cfg") + " -p " +
                              quoted(kParams / "power9_v100.json") + " --ranks-per-node 1");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("consecutive, 1 ranks per node, 1 per socket"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("inter_node"), std::string::npos) << r.out;
}

TEST_F(ModelCli, BadParameterFileNamesTheKey) {
  nlohmann::json json = nlohmann::json::parse(read_text(kParams / "power9_v100.json"));
  json["inter_node"]["rendezvous"]["R_Ci"] = -2.22e10;
  fs::create_directories(kScratch);
  const fs::path bad = kScratch / "bad_params.json";
  std::ofstream(bad) << json.dump(2);
  const RunResult r = run_cli(quoted(kConfigs / "comb_200_np64.cfg") + " --params " + quoted(bad));
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("bad_params.json: inter_node.rendezvous.R_Ci: must be > 0"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(r.out.find("total lower bound"), std::string::npos) << r.out;
}

TEST_F(ModelCli, ConfigThatDoesNotFitIsRejected) {
  const RunResult r = run_cli(quoted(kConfigs / "comb_200_np64.cfg") + " -p " +
                              quoted(kParams / "power9_v100.json") + " --nodes 8");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("the config has 64 ranks but the mapping holds 32"), std::string::npos)
      << r.err;
}

// The Power9 file with node transport terms (1.5 us per copy, 250 GB/s, 0.8 us per flag).
fs::path write_node_params() {
  nlohmann::json json = nlohmann::json::parse(read_text(kParams / "power9_v100.json"));
  json["node_transport"] = {{"copy_bandwidth_bytes_per_s", 2.5e11},
                            {"copy_latency_s", 1.5e-6},
                            {"flag_latency_s", 0.8e-6}};
  fs::create_directories(kScratch);
  const fs::path path = kScratch / "node_params.json";
  std::ofstream(path) << json.dump(2);
  return path;
}

TEST_F(ModelCli, TransportDefaultsToMpi) {
  const RunResult r = run_cli(quoted(kConfigs / "comb_200_np2_reduced.cfg") + " -p " +
                              quoted(write_node_params()));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("transport: mpi; every message: postal model"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("total lower bound: 18.764 us (rank 0)"), std::string::npos) << r.out;
}

TEST_F(ModelCli, NodeTransportUsesTheNodeTerms) {
  // Both ranks on one node: the 60000 B face takes 1.5 + 0.24 + 0.8 = 2.54 us and its unpack at
  // least its copy, 1.74 us (prediction_test.cpp).
  const fs::path json_path = kScratch / "node.json";
  const RunResult r = run_cli(quoted(kConfigs / "comb_200_np2_reduced.cfg") + " -p " +
                              quoted(write_node_params()) + " --transport node --json " +
                              quoted(json_path));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("transport: node; within a node: copy 1.500 us + n / 2.5e+11 B/s, flag "
                       "0.800 us"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("SP 0.000 us (the node copy packs) + T_comm 2.540 us (60000 B to rank 1, "
                       "intra_socket node) + LUP 1.740 us (node copy of 60000 B) = 4.280 us"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("total lower bound: 4.280 us (rank 0)"), std::string::npos) << r.out;
  const nlohmann::json json = nlohmann::json::parse(read_text(json_path));
  EXPECT_EQ(json["transport"]["asked"], "node");
  EXPECT_TRUE(json["transport"]["node_transport_used"].get<bool>());
  EXPECT_DOUBLE_EQ(json["transport"]["flag_latency_s"].get<double>(), 0.8e-6);
  EXPECT_EQ(json["ranks"][0]["sends"][0]["path"], "node");
  EXPECT_EQ(json["ranks"][0]["lup"]["path"], "node");
  EXPECT_NEAR(json["total"]["lower_bound_s"].get<double>(), 4.28e-6, 1e-15);
}

TEST_F(ModelCli, NodeTransportWithoutTermsNamesTheFileAndKey) {
  const RunResult r = run_cli(quoted(kConfigs / "comb_200_np2_reduced.cfg") + " -p " +
                              quoted(kParams / "power9_v100.json") + " --transport node");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("haloflag_model: error: "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("power9_v100.json: node_transport: missing key"), std::string::npos)
      << r.err;
  EXPECT_EQ(r.out.find("total lower bound"), std::string::npos) << r.out;
  // auto falls back to the MPI path and says so.
  const RunResult automatic = run_cli(quoted(kConfigs / "comb_200_np2_reduced.cfg") + " -p " +
                                      quoted(kParams / "power9_v100.json") + " --transport auto");
  ASSERT_EQ(automatic.exit_code, 0) << automatic.err;
  EXPECT_NE(automatic.out.find("transport: auto -> mpi (the parameter file has no node_transport)"),
            std::string::npos)
      << automatic.out;
  EXPECT_NE(automatic.out.find("total lower bound: 18.764 us"), std::string::npos) << automatic.out;
  // An unknown transport is an argument error.
  EXPECT_NE(run_cli(quoted(kConfigs / "comb_200_np2_reduced.cfg") + " -p " +
                    quoted(kParams / "power9_v100.json") + " --transport ipc")
                .exit_code,
            0);
}

TEST_F(ModelCli, MissingArgumentsFail) {
  EXPECT_NE(run_cli(quoted(kConfigs / "comb_200_np64.cfg")).exit_code, 0);  // no --params
  EXPECT_NE(run_cli("--params " + quoted(kParams / "power9_v100.json")).exit_code, 0);
  EXPECT_NE(run_cli("/nonexistent.cfg -p " + quoted(kParams / "power9_v100.json")).exit_code, 0);
}

}  // namespace
