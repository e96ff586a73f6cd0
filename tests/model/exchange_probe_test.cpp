// The exchange probe the merge reads (a halo_bench report on tiny messages): its rows, and the
// config it ran found beside it once the calibration folder has moved (a published one), since
// the report names the path the config had on the machine that measured.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "haloflag/model/errors.hpp"
#include "schedule_calibration.hpp"

namespace {

using namespace haloflag::model::calibration;
namespace fs = std::filesystem;

class ExchangeProbeFile : public testing::Test {
 protected:
  void SetUp() override { fs::create_directories(scratch_); }
  void TearDown() override { fs::remove_all(scratch_); }

  // A report of comb_fused over MPI and resident over node, plus a tuned row the merge skips.
  fs::path write_probe(const std::string& config_file) const {
    const nlohmann::json strategies = nlohmann::json::array(
        {{{"strategy", "comb_fused"}, {"transport_used", "mpi"}, {"tuned", false},
          {"summary_us", {{"median", 30.0}}}},
         {{"strategy", "resident"}, {"transport_used", "node"}, {"tuned", false},
          {"summary_us", {{"median", 16.0}}}},
         {{"strategy", "resident"}, {"transport_used", "node"}, {"tuned", true},
          {"summary_us", {{"median", 15.0}}}}});
    const nlohmann::json report = {{"tool", "halo_bench"},
                                   {"workload", {{"config_file", config_file}}},
                                   {"gpu_sharing", {{"ranks_per_gpu", 2}}},
                                   {"strategies", strategies}};
    const fs::path path = scratch_ / "probe.json";
    std::ofstream(path) << report.dump();
    return path;
  }

  const fs::path scratch_ =
      fs::temp_directory_path() / ("haloflag_exchange_probe_test_" + std::to_string(::getpid()));
};

TEST_F(ExchangeProbeFile, ReadsTheUntunedRowsAndTheSharing) {
  std::ofstream(scratch_ / "probe.cfg") << "config\n";
  const ExchangeProbe probe = read_exchange_probe(write_probe((scratch_ / "probe.cfg").string()));
  EXPECT_EQ(probe.config_file, (scratch_ / "probe.cfg").string());
  EXPECT_EQ(probe.ranks_per_gpu, 2);
  ASSERT_EQ(probe.rows.size(), 2u);
  EXPECT_EQ(probe.rows[0].strategy, "comb_fused");
  EXPECT_EQ(probe.rows[0].transport, "mpi");
  EXPECT_DOUBLE_EQ(probe.rows[0].median, 30e-6);
  EXPECT_EQ(probe.rows[1].transport, "node");
  EXPECT_DOUBLE_EQ(probe.rows[1].median, 16e-6);
}

TEST_F(ExchangeProbeFile, FindsAMovedConfigBesideTheReport) {
  std::ofstream(scratch_ / "probe.cfg") << "config\n";
  const ExchangeProbe probe = read_exchange_probe(write_probe("/no-such-folder-haloflag/cal/probe.cfg"));
  EXPECT_EQ(probe.config_file, (scratch_ / "probe.cfg").string());
}

TEST_F(ExchangeProbeFile, KeepsAPathFoundNowhereForTheConfigReaderToName) {
  const ExchangeProbe probe = read_exchange_probe(write_probe("/no-such-folder-haloflag/cal/probe.cfg"));
  EXPECT_EQ(probe.config_file, "/no-such-folder-haloflag/cal/probe.cfg");
}

TEST_F(ExchangeProbeFile, RejectsAReportOfAnotherTool) {
  const fs::path path = scratch_ / "other.json";
  std::ofstream(path) << R"({"tool": "notify_latency", "strategies": []})";
  try {
    (void)read_exchange_probe(path);
    FAIL() << "a notify_latency report was read as a probe";
  } catch (const haloflag::model::ParamsError& error) {
    EXPECT_NE(std::string(error.what()).find("other.json"), std::string::npos) << error.what();
    EXPECT_NE(std::string(error.what()).find("halo_bench"), std::string::npos) << error.what();
  }
}

}  // namespace
