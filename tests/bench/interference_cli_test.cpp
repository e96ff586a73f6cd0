// interference under mpiexec with two ranks: on the host backend (CPU threads standing in for the
// GPU) every case of a tiny sweep is timed, checked and reported in JSON with its samples, ratios
// and the GPU's work; chosen scenarios and forms narrow the cases; bad options, a rank count other
// than 2 and a GPU backend that is not there end with a message and a non-zero exit. On a machine
// with a GPU the same sweep runs on it; the plot script draws the report when matplotlib is there.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstddef>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "haloflag/notify/backend.hpp"
#include "run_command.hpp"

#if !defined(HALOFLAG_INTERFERENCE) || !defined(HALOFLAG_MPIEXEC) || \
    !defined(HALOFLAG_PLOT_INTERFERENCE)
#error "tests/bench/CMakeLists.txt names interference, mpiexec and the plot script"
#endif

namespace {

namespace fs = std::filesystem;

using haloflag::test::RunResult;
using haloflag::test::shell_quoted;

const fs::path kScratch =
    fs::temp_directory_path() / ("haloflag_interference_cli_test_" + std::to_string(::getpid()));

constexpr int kIterations = 5;
constexpr int kWarmup = 2;
constexpr std::size_t kGapBytes = std::size_t{2} << 20;
// Per size: the baseline, SSB, PSB, PCB, P2AB in both access forms, the copies.
constexpr std::size_t kCasesPerSize = 1 + 4 * 2 + 1;
const std::vector<std::size_t> kSizes = {1024, 4096};
// The sweep every full run uses: tiny sizes, few rounds, small copies, a generous deadline
// (the stand-in threads share two cores with both ranks).
const std::string kTinySweep = "--min-bytes 1KiB --max-bytes 4KiB --size-factor 4 --warmup " +
                               std::to_string(kWarmup) + " --iterations " +
                               std::to_string(kIterations) + " --copy-bytes 64KiB --timeout 60";

// `mpiexec -n <ranks> interference <arguments>` (the environment allowing oversubscription comes
// from the test's CTest properties).
RunResult run_interference(const std::string& arguments, int ranks = 2) {
  return haloflag::test::run_command(HALOFLAG_MPIEXEC,
                                     std::string(HALOFLAG_MPIEXEC_NUMPROC_FLAG) + " " +
                                         std::to_string(ranks) + " " +
                                         shell_quoted(HALOFLAG_INTERFERENCE) + " " + arguments,
                                     kScratch);
}

nlohmann::json read_json(const fs::path& path) {
  return nlohmann::json::parse(haloflag::test::read_text(path));
}

class InterferenceCli : public testing::Test {
 protected:
  void TearDown() override { fs::remove_all(kScratch); }
};

// What every report holds, whatever the backend.
void expect_complete_report(const nlohmann::json& report) {
  EXPECT_EQ(report["format"], "haloflag-interference");
  EXPECT_EQ(report["version"], 1);
  EXPECT_EQ(report["mpi"]["ranks"], 2);
  EXPECT_FALSE(report["mpi"]["library"].get<std::string>().empty());
  EXPECT_TRUE(report["mpi"]["settings"].is_array());
  EXPECT_EQ(report["machine"]["hosts"].size(), 2u);
  EXPECT_FALSE(report["build"]["haloflag_version"].get<std::string>().empty());
  EXPECT_FALSE(report["command_line"].empty());
  EXPECT_EQ(report["parameters"]["iterations"], kIterations);
  EXPECT_EQ(report["parameters"]["warmup"], kWarmup);
  EXPECT_EQ(report["parameters"]["sizes"], nlohmann::json(kSizes));
  EXPECT_EQ(report["parameters"]["p2ab_gap_bytes"], kGapBytes);
  EXPECT_FALSE(report["roles"]["writer_description"].get<std::string>().empty());
  EXPECT_TRUE(report["access_shapes"]["stream"].is_object());
  EXPECT_TRUE(report["access_shapes"]["stacked"].is_object());
  EXPECT_GE(report["access_shapes"]["stacked"]["blocks"].get<int>(), 1);
  EXPECT_TRUE(report["copies"].is_object());

  const nlohmann::json& cases = report["cases"];
  ASSERT_EQ(cases.size(), kSizes.size() * kCasesPerSize);
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const nlohmann::json& result = cases[i];
    const std::string scenario = result["scenario"];
    const std::size_t bytes = result["bytes"];
    SCOPED_TRACE(scenario + " " + result["access"].dump() + " " + std::to_string(bytes));
    EXPECT_EQ(bytes, kSizes[i / kCasesPerSize]);
    if (i % kCasesPerSize == 0) {  // the baseline comes first
      EXPECT_EQ(scenario, "none");
    }
    ASSERT_EQ(result["samples_us"].size(), static_cast<std::size_t>(kIterations));
    for (const nlohmann::json& sample : result["samples_us"]) EXPECT_GT(sample.get<double>(), 0.0);
    const nlohmann::json& summary = result["summary_us"];
    EXPECT_EQ(summary["count"], kIterations);
    EXPECT_GT(summary["median"].get<double>(), 0.0);
    EXPECT_LE(summary["p10"].get<double>(), summary["median"].get<double>());
    EXPECT_LE(summary["median"].get<double>(), summary["p90"].get<double>());
    EXPECT_GT(result["slowdown_vs_none"].get<double>(), 0.0);
    if (scenario == "none") {
      EXPECT_DOUBLE_EQ(result["slowdown_vs_none"].get<double>(), 1.0);
    }

    const bool parallel = scenario == "PSB" || scenario == "PCB" || scenario == "P2AB";
    EXPECT_EQ(result["writes_during_send"], parallel);
    if (scenario == "none" || scenario == "copies") {
      EXPECT_TRUE(result["access"].is_null());
      EXPECT_TRUE(result["slowdown_vs_ssb"].is_null());
    } else {
      EXPECT_TRUE(result["access"] == "stream" || result["access"] == "stacked");
      EXPECT_GT(result["slowdown_vs_ssb"].get<double>(), 0.0);
    }
    if (scenario == "SSB") {
      EXPECT_DOUBLE_EQ(result["slowdown_vs_ssb"].get<double>(), 1.0);
    }
    if (parallel) {
      // The GPU (here its stand-in) wrote at least one chunk after notifying in every round.
      ASSERT_EQ(result["gpu_passes"].size(), static_cast<std::size_t>(kIterations));
      for (const nlohmann::json& passes : result["gpu_passes"]) EXPECT_GT(passes.get<double>(), 0.0);
      EXPECT_GT(result["gpu_passes_median"].get<double>(), 0.0);
    } else {
      EXPECT_TRUE(result["gpu_passes"].empty());
    }
    if (scenario == "PCB") {
      EXPECT_EQ(result["target_offset_bytes"], bytes);
    }
    if (scenario == "P2AB") {
      EXPECT_EQ(result["target_offset_bytes"], bytes + kGapBytes);
    }
    if (scenario == "copies") {
      EXPECT_GE(result["copy_pairs"].get<int>(), 1);
    } else {
      EXPECT_TRUE(result["copy_pairs"].is_null());
    }
    // The receiver checked the pattern the send buffer held, except under PSB.
    const nlohmann::json& check = result["data_check"];
    EXPECT_EQ(check["passed"], true) << check.dump();
    EXPECT_EQ(check["checked"], scenario != "PSB") << check.dump();
    if (scenario != "PSB") {
      EXPECT_EQ(check["mismatched_words"], 0);
    }
  }
}

TEST_F(InterferenceCli, EveryCaseOfTheHostSweepIsTimedCheckedAndReported) {
  const fs::path json_path = kScratch / "host.json";
  const RunResult r =
      run_interference("--backend host " + kTinySweep + " --json " + shell_quoted(json_path));
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("not GPU results"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("outside the MPI standard"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("P2AB"), std::string::npos) << r.out;

  const nlohmann::json report = read_json(json_path);
  EXPECT_EQ(report["backend"]["name"], "host");
  EXPECT_EQ(report["backend"]["emulated_on_cpu"], true);
  EXPECT_TRUE(report["machine"]["writing_gpu"].is_null());
  EXPECT_TRUE(report["machine"]["gpus"].empty());
  EXPECT_EQ(report["access_shapes"]["stream"]["threads_per_block"], 1);
  expect_complete_report(report);
}

TEST_F(InterferenceCli, ChosenScenariosAndFormsNarrowTheCases) {
  const fs::path json_path = kScratch / "narrow.json";
  const RunResult r = run_interference("--backend host " + kTinySweep +
                                       " --scenarios pcb --access stream --json " +
                                       shell_quoted(json_path));
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const nlohmann::json report = read_json(json_path);
  EXPECT_TRUE(report["copies"].is_null());
  EXPECT_TRUE(report["access_shapes"]["stacked"].is_null());
  const nlohmann::json& cases = report["cases"];
  ASSERT_EQ(cases.size(), 2 * kSizes.size());  // baseline and PCB per size
  for (std::size_t i = 0; i < cases.size(); i += 2) {
    EXPECT_EQ(cases[i]["scenario"], "none");
    EXPECT_EQ(cases[i + 1]["scenario"], "PCB");
    EXPECT_EQ(cases[i + 1]["access"], "stream");
    // Without SSB in the run there is no SSB ratio.
    EXPECT_TRUE(cases[i + 1]["slowdown_vs_ssb"].is_null());
  }
}

TEST_F(InterferenceCli, MalformedOptionsFailWithAMessage) {
  struct Case {
    std::string arguments;
    std::string message;
  };
  const std::vector<Case> cases = {
      {"--iterations many", "--iterations"},
      {"--scenarios ssb,fastest", "unknown scenario 'fastest'; choose from ssb, psb, pcb, p2ab"},
      {"--scenarios none", "the baseline 'none' is always measured"},
      {"--access diagonal", "unknown access form 'diagonal'"},
      {"--size-factor 3", "--size-factor"},
      {"--min-bytes 6", "--min-bytes: must be a positive multiple of 4"},
      {"--min-bytes 4KiB --max-bytes 1KiB", "--max-bytes: 1024 is below --min-bytes 4096"},
      {"--max-bytes 2GiB", "--max-bytes: at most 1073741824"},
      {"--timeout 0", "--timeout"},
      {"--backend tpu", "--backend"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.arguments);
    const RunResult r = run_interference("--backend host " + c.arguments + " --json ''");
    EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << r.err;
    EXPECT_EQ(r.out.find("median"), std::string::npos) << r.out;  // nothing was measured
  }
}

TEST_F(InterferenceCli, OnlyTwoRanksAreAccepted) {
  const RunResult r = run_interference("--backend host " + kTinySweep + " --json ''", 3);
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("needs exactly 2 ranks (rank 0 sends, rank 1 receives); this run has 3"),
            std::string::npos)
      << r.err;
}

// A report path that cannot be written ends the run on both ranks before the sweep, naming
// the path and why, instead of after it with the results lost.
TEST_F(InterferenceCli, AReportPathThatCannotBeWrittenEndsTheRunBeforeTheSweep) {
  const fs::path json_path = kScratch / "no_such_folder" / "report.json";
  const RunResult r =
      run_interference("--backend host " + kTinySweep + " --json " + shell_quoted(json_path));
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("[rank 0] interference: --json " + json_path.string() + ": the folder " +
                       json_path.parent_path().string() + " does not exist"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(r.out.find("median"), std::string::npos) << r.out;  // nothing was measured
  EXPECT_FALSE(fs::exists(json_path));
}

TEST_F(InterferenceCli, AGpuBackendThatIsNotThereIsRefused) {
  if (haloflag::notify::gpu_device_count() > 0) {
    GTEST_SKIP() << "a GPU is present: the cuda/hip backend is usable here";
  }
  const RunResult r = run_interference("--backend cuda " + kTinySweep + " --json ''");
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("--backend cuda"), std::string::npos) << r.err;
}

TEST_F(InterferenceCli, TheGpuSweepIsTimedCheckedAndReported) {
  std::string why;
  if (haloflag::notify::gpu_device_count(&why) == 0) GTEST_SKIP() << "no GPU: " << why;
  const fs::path json_path = kScratch / "gpu.json";
  const RunResult r =
      run_interference("--backend auto " + kTinySweep + " --json " + shell_quoted(json_path));
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const nlohmann::json report = read_json(json_path);
  EXPECT_NE(report["backend"]["name"], "host");
  EXPECT_EQ(report["backend"]["emulated_on_cpu"], false);
  EXPECT_FALSE(report["machine"]["writing_gpu"]["name"].get<std::string>().empty());
  EXPECT_EQ(report["machine"]["gpus"].size(), 2u);
  EXPECT_GE(report["access_shapes"]["stream"]["threads_per_block"].get<int>(), 64);
  EXPECT_GE(report["access_shapes"]["stacked"]["blocks_per_multiprocessor"].get<int>(), 1);
  expect_complete_report(report);
}

// The first interpreter that has matplotlib (pyenv's python3 may lack it where Debian's has it).
std::string python_with_matplotlib() {
  for (const char* candidate : {"python3", "/usr/bin/python3"}) {
    if (haloflag::test::run_command(candidate, "-c 'import matplotlib'", kScratch).exit_code == 0) {
      return candidate;
    }
  }
  return {};
}

TEST_F(InterferenceCli, ThePlotScriptDrawsTheReport) {
  const std::string python = python_with_matplotlib();
  if (python.empty()) GTEST_SKIP() << "no python3 with matplotlib (apt-get install python3-matplotlib)";
  const fs::path json_path = kScratch / "plot.json";
  RunResult r = run_interference("--backend host " + kTinySweep + " --json " +
                                 shell_quoted(json_path));
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const fs::path plots = kScratch / "plots";
  r = haloflag::test::run_command(python,
                                  shell_quoted(HALOFLAG_PLOT_INTERFERENCE) + " " +
                                      shell_quoted(json_path) + " " + shell_quoted(plots),
                                  kScratch);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  for (const char* name : {"interference_stream.png", "interference_stacked.png",
                           "interference_slowdown.png", "interference.md"}) {
    EXPECT_TRUE(fs::is_regular_file(plots / name)) << name;
    if (fs::is_regular_file(plots / name)) {
      EXPECT_GT(fs::file_size(plots / name), 100u) << name;
    }
  }
  const std::string table = haloflag::test::read_text(plots / "interference.md");
  EXPECT_NE(table.find("not GPU results"), std::string::npos) << table;
  EXPECT_NE(table.find("P2AB"), std::string::npos) << table;

  // A file that is not such a report is refused with a message.
  const fs::path wrong = kScratch / "wrong.json";
  {
    std::ofstream(wrong) << R"({"format": "haloflag-halo-bench"})";
  }
  r = haloflag::test::run_command(python,
                                  shell_quoted(HALOFLAG_PLOT_INTERFERENCE) + " " +
                                      shell_quoted(wrong) + " " + shell_quoted(plots),
                                  kScratch);
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("haloflag-interference"), std::string::npos) << r.err;
}

}  // namespace
