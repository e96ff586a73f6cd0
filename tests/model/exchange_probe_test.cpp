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
#include "haloflag/halo/config_file.hpp"
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

namespace {

// Two ranks sending each other one message of `bytes`, written where a probe names it.
std::string write_two_rank_config(const fs::path& path, std::int64_t bytes) {
  haloflag::halo::ExchangeConfig config;
  config.ranks = 2;
  config.rank_messages.resize(2);
  for (int rank = 0; rank < 2; ++rank) {
    haloflag::halo::Message m;
    m.peer = 1 - rank;
    m.tag = 0;
    m.bytes = bytes;
    config.rank_messages[rank].sends = {m};
    config.rank_messages[rank].recvs = {m};
  }
  haloflag::halo::write_config_file(path, config);
  return path.string();
}

haloflag::model::MachineParams with_fixed_costs() {
  haloflag::model::MachineParams params;
  params.schedule = haloflag::model::ScheduleParams{};
  params.schedule->fixed["resident"] = {-1.0, 10e-6};
  params.schedule->fixed["stream_notify"] = {-1.0, 30e-6};  // above its medians: left out
  return params;
}

TEST_F(ExchangeProbeFile, FitsTheNodeGridNetOfTheFixedCostAgainstTheBusierDirection) {
  // resident: 10 us fixed, then bytes x 2 (ranks per GPU) / 4e9 B/s.
  std::vector<ExchangeProbe> probes;
  for (const std::int64_t bytes : {40000, 400000, 4000000}) {
    ExchangeProbe probe;
    probe.source = "grid_" + std::to_string(bytes) + ".json";
    probe.config_file =
        write_two_rank_config(scratch_ / ("grid_" + std::to_string(bytes) + ".cfg"), bytes);
    probe.ranks_per_gpu = 2;
    const double seconds = 10e-6 + 2.0 * static_cast<double>(bytes) / 4e9;
    probe.rows = {{"resident", "node", seconds},
                  {"stream_notify", "node", 20e-6},  // never above its fixed cost
                  {"comb_fused", "node", 50e-6}};
    probes.push_back(probe);
  }
  haloflag::model::MachineParams params = with_fixed_costs();
  std::vector<std::string> notes;
  add_node_grid(params, probes, notes);
  ASSERT_EQ(params.schedule->node_grid.size(), 1u);
  EXPECT_NEAR(params.schedule->node_grid.at("resident"), 4e9, 4e9 * 1e-9);
  bool left_out = false;
  for (const std::string& note : notes) {
    left_out = left_out || note.find("node grid: stream_notify left out: its medians do not grow") !=
                               std::string::npos;
  }
  EXPECT_TRUE(left_out);
}

TEST_F(ExchangeProbeFile, NodeGridNeedsTwoSizes) {
  ExchangeProbe probe;
  probe.source = "grid.json";
  probe.config_file = write_two_rank_config(scratch_ / "grid.cfg", 40000);
  probe.rows = {{"resident", "node", 20e-6}};
  haloflag::model::MachineParams params = with_fixed_costs();
  std::vector<std::string> notes;
  EXPECT_THROW(add_node_grid(params, {probe}, notes), std::invalid_argument);
  haloflag::model::MachineParams no_schedule;
  EXPECT_THROW(add_node_grid(no_schedule, {probe}, notes), std::invalid_argument);
}

}  // namespace
