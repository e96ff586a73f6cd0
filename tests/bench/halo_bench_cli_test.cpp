// halo_bench under mpiexec with two ranks on the host backend: every strategy runs on the
// shipped 2-rank config, each verified and timed, and the JSON report holds positive times for
// all of them; bad options and a config for another rank count end with a message and a
// non-zero exit.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "haloflag/halo/strategy.hpp"
#include "run_command.hpp"

#if !defined(HALOFLAG_HALO_BENCH) || !defined(HALOFLAG_MPIEXEC) || !defined(HALOFLAG_COMB_CONFIG_DIR)
#error "tests/bench/CMakeLists.txt names halo_bench, mpiexec and the shipped configs"
#endif

namespace {

namespace fs = std::filesystem;

const fs::path kConfigs = HALOFLAG_COMB_CONFIG_DIR;
const fs::path kScratch =
    fs::temp_directory_path() / ("haloflag_halo_bench_cli_test_" + std::to_string(::getpid()));

using haloflag::test::RunResult;
using haloflag::test::shell_quoted;

constexpr int kIterations = 20;
constexpr int kVerifiedBeforeTiming = 5;

// `mpiexec -n 2 halo_bench <arguments>` (the environment allowing oversubscription comes from
// the test's CTest properties).
RunResult run_bench(const std::string& arguments) {
  return haloflag::test::run_command(HALOFLAG_MPIEXEC,
                                     std::string(HALOFLAG_MPIEXEC_NUMPROC_FLAG) + " 2 " +
                                         shell_quoted(HALOFLAG_HALO_BENCH) + " " + arguments,
                                     kScratch);
}

class HaloBenchCli : public testing::Test {
 protected:
  void TearDown() override { fs::remove_all(kScratch); }
};

TEST_F(HaloBenchCli, EveryStrategyIsVerifiedAndTimedOnTheShippedConfig) {
  const fs::path json_path = kScratch / "report.json";
  const RunResult r = run_bench("--backend host --iterations " + std::to_string(kIterations) +
                                " --warmup 5 --verify " + std::to_string(kVerifiedBeforeTiming) +
                                " --strategy all --config " +
                                shell_quoted(kConfigs / "comb_200_np2_reduced.cfg") + " --json " +
                                shell_quoted(json_path));
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("CPU threads emulate the GPU"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("lower bound"), std::string::npos) << r.out;

  const nlohmann::json report = nlohmann::json::parse(haloflag::test::read_text(json_path));
  EXPECT_EQ(report["format"], "haloflag-halo-bench");
  EXPECT_EQ(report["backend"]["name"], "host");
  EXPECT_EQ(report["backend"]["emulated_on_cpu"], true);
  EXPECT_EQ(report["mpi"]["ranks"], 2);
  EXPECT_FALSE(report["mpi"]["library"].get<std::string>().empty());
  EXPECT_EQ(report["machine"]["hosts"].size(), 2u);
  EXPECT_FALSE(report["build"]["haloflag_version"].get<std::string>().empty());
  EXPECT_EQ(report["parameters"]["iterations"], kIterations);
  EXPECT_EQ(report["workload"]["messages"]["sends_per_rank"][0], 26);
  const double bound_us = report["model"]["bound_us"].get<double>();
  EXPECT_GT(bound_us, 0.0);

  const auto strategies = haloflag::halo::all_strategies();
  const nlohmann::json& results = report["strategies"];
  ASSERT_EQ(results.size(), strategies.size());
  ASSERT_EQ(results.size(), 6u);
  for (std::size_t i = 0; i < strategies.size(); ++i) {
    const nlohmann::json& result = results[i];
    const std::string name(haloflag::halo::to_string(strategies[i]));
    SCOPED_TRACE(name);
    EXPECT_EQ(result["name"], name);
    EXPECT_EQ(result["verification"]["passed"], true) << result["verification"].dump();
    EXPECT_EQ(result["verification"]["exchanges"], kVerifiedBeforeTiming + 1);
    EXPECT_FALSE(result["launch_description"].get<std::string>().empty());
    ASSERT_EQ(result["samples_us"].size(), static_cast<std::size_t>(kIterations));
    for (const nlohmann::json& sample : result["samples_us"]) EXPECT_GT(sample.get<double>(), 0.0);
    const nlohmann::json& summary = result["summary_us"];
    ASSERT_TRUE(summary.is_object()) << result.dump();
    for (const char* key : {"median", "p10", "p90", "min", "mean"}) {
      EXPECT_GT(summary[key].get<double>(), 0.0) << key;
    }
    EXPECT_LE(summary["p10"].get<double>(), summary["median"].get<double>());
    EXPECT_LE(summary["median"].get<double>(), summary["p90"].get<double>());
    EXPECT_GT(result["speedup_vs_comb_fused"].get<double>(), 0.0);
    EXPECT_DOUBLE_EQ(result["model_bound_us"].get<double>(), bound_us);
    EXPECT_GT(result["measured_over_model"].get<double>(), 0.0);
  }
  EXPECT_DOUBLE_EQ(results[0]["speedup_vs_comb_fused"].get<double>(), 1.0);
}

TEST_F(HaloBenchCli, MalformedOptionsFailWithAMessage) {
  RunResult r = run_bench("--backend host --iterations many --json ''");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("--iterations"), std::string::npos) << r.err;

  r = run_bench("--backend host --strategy fastest --json ''");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("unknown strategy 'fastest'"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("stream_notify"), std::string::npos) << r.err;  // the valid choices

  r = run_bench("--backend host --size 1,2 --json ''");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("--size: takes N or X,Y,Z"), std::string::npos) << r.err;
  EXPECT_EQ(r.out.find("median"), std::string::npos) << r.out;  // nothing was measured
}

TEST_F(HaloBenchCli, ConfigForAnotherRankCountIsRefused) {
  const RunResult r = run_bench("--backend host --json '' --config " +
                                shell_quoted(kConfigs / "comb_200_np4.cfg"));
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("is a config for 4 ranks, but this run has 2"), std::string::npos) << r.err;
}

}  // namespace
