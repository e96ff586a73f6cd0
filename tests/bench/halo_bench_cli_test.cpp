// halo_bench under mpiexec with two ranks on the host backend: every strategy runs on the
// shipped 2-rank config in rounds, each round verified and timed, and the JSON report holds
// positive times for all of them; the parameters of this machine are found by its key, or the
// heading says how to make them, and each row carries its prediction; --verify-each verifies every timed exchange and the drift section matches the
// samples; nccl, which cannot run on the host backend, is left out with its reason in the heading
// and the JSON; bad options, a config for another rank count and output paths that cannot be
// written end with a message and a non-zero exit, the latter before any exchange.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "haloflag/halo/strategy.hpp"
#include "haloflag/halo/tuning.hpp"
#include "run_command.hpp"

#if !defined(HALOFLAG_HALO_BENCH) || !defined(HALOFLAG_MPIEXEC) || \
    !defined(HALOFLAG_COMB_CONFIG_DIR) || !defined(HALOFLAG_SCHEDULE_PARAMS)
#error "tests/bench/CMakeLists.txt names halo_bench, mpiexec, the shipped configs and a fixture"
#endif

namespace {

namespace fs = std::filesystem;

const fs::path kConfigs = HALOFLAG_COMB_CONFIG_DIR;
const fs::path kScratch =
    fs::temp_directory_path() / ("haloflag_halo_bench_cli_test_" + std::to_string(::getpid()));

using haloflag::test::RunResult;
using haloflag::test::shell_quoted;

constexpr int kIterations = 20;
constexpr int kRounds = 2;
constexpr int kVerifiedBeforeTiming = 5;

// `mpiexec -n 2 halo_bench <arguments>` (the environment allowing oversubscription comes from
// the test's CTest properties).
RunResult run_bench(const std::string& arguments) {
  return haloflag::test::run_command(HALOFLAG_MPIEXEC,
                                     std::string(HALOFLAG_MPIEXEC_NUMPROC_FLAG) + " 2 " +
                                         shell_quoted(HALOFLAG_HALO_BENCH) + " " + arguments,
                                     kScratch);
}

// A short verified run on a small geometry: the options the transport and tuning tests share.
const std::string kShortRun =
    "--backend host --strategy comb_fused,resident --size 8 --vars 1 --warmup 1 --verify 1 "
    "--trace-exchanges 0 --iterations 4 --rounds 2 ";

// The short run with `arguments` and a JSON report `name` in the scratch folder: the run (for its
// output) and the report, which is null when the run failed (the test has then failed).
std::pair<RunResult, nlohmann::json> run_short(const std::string& arguments,
                                               const std::string& name) {
  const fs::path json_path = kScratch / name;
  const RunResult r = run_bench(kShortRun + arguments + " --json " + shell_quoted(json_path));
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  if (r.exit_code != 0) return {r, nullptr};
  return {r, nlohmann::json::parse(haloflag::test::read_text(json_path))};
}

class HaloBenchCli : public testing::Test {
 protected:
  void TearDown() override { fs::remove_all(kScratch); }
};

// Over MPI, where the model's K-model bound applies to every result.
TEST_F(HaloBenchCli, EveryStrategyIsVerifiedAndTimedOnTheShippedConfig) {
  const fs::path json_path = kScratch / "report.json";
  const RunResult r = run_bench("--backend host --transport mpi --iterations " +
                                std::to_string(kIterations) +
                                " --rounds " + std::to_string(kRounds) +
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
  EXPECT_TRUE(report["mpi"]["settings"].is_array());
  EXPECT_NE(r.out.find("MPI env "), std::string::npos) << r.out;
  EXPECT_EQ(report["machine"]["hosts"].size(), 2u);
  EXPECT_FALSE(report["build"]["haloflag_version"].get<std::string>().empty());
  EXPECT_EQ(report["parameters"]["iterations"], kIterations);
  EXPECT_EQ(report["parameters"]["rounds"], kRounds);
  EXPECT_NE(r.out.find("in 2 rounds over the strategies in rotation"), std::string::npos) << r.out;
  // The library's default order of work (ExchangeOptions, LaunchSettings).
  EXPECT_EQ(report["parameters"]["launch"]["long_receives"], "on-arrival");
  EXPECT_NE(r.out.find("post the long ones as they arrive"), std::string::npos) << r.out;
  EXPECT_EQ(report["parameters"]["launch"]["long_sends"], "together");
  EXPECT_NE(r.out.find("(--long-sends together)"), std::string::npos) << r.out;
  EXPECT_EQ(report["parameters"]["launch"]["long_receive_blocks"], 3);
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
    // Each round's Exchange is verified before its timed exchanges and once after them.
    EXPECT_EQ(result["verification"]["exchanges"], kRounds * (kVerifiedBeforeTiming + 1));
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

// --verify-each: every timed exchange is verified too (the verification count says so), here
// with long sends in turn and every receive posted first (and the launch settings in the JSON), and
// with at least two drift windows of timed exchanges the drift section appears in the table and
// the JSON, its medians those of the first and last window of samples_us: the samples of all
// rounds in the order they were taken.
TEST_F(HaloBenchCli, VerifyEachChecksEveryTimedExchangeAndReportsDrift) {
  constexpr int kTimed = 240;
  constexpr int kWindow = 100;
  constexpr int kTimedRounds = 3;
  const fs::path json_path = kScratch / "verify_each.json";
  const RunResult r = run_bench(
      "--backend host --strategy stream_notify,resident --size 8 --vars 1 --warmup 2 --verify 1 "
      "--trace-exchanges 0 --verify-each --long-receives posted-first --long-sends in-turn "
      "--long-receive-blocks 2 --rounds " +
      std::to_string(kTimedRounds) +
      " --iterations " + std::to_string(kTimed) +
      " --drift-window " + std::to_string(kWindow) + " --json " + shell_quoted(json_path));
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("every timed one"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("drift (median of the first 100 and of the last 100 timed exchanges)"),
            std::string::npos)
      << r.out;

  const nlohmann::json report = nlohmann::json::parse(haloflag::test::read_text(json_path));
  EXPECT_EQ(report["parameters"]["verify_each"], true);
  EXPECT_EQ(report["parameters"]["launch"]["long_receives"], "posted-first");
  EXPECT_EQ(report["parameters"]["launch"]["long_sends"], "in-turn");
  EXPECT_EQ(report["parameters"]["launch"]["long_receive_blocks"], 2);
  EXPECT_NE(r.out.find("every one posted at start()"), std::string::npos) << r.out;
  EXPECT_EQ(report["parameters"]["drift_window"], kWindow);
  const nlohmann::json& results = report["strategies"];
  ASSERT_EQ(results.size(), 2u);
  for (const nlohmann::json& result : results) {
    SCOPED_TRACE(result["name"].get<std::string>());
    const nlohmann::json& verification = result["verification"];
    EXPECT_EQ(verification["passed"], true) << verification.dump();
    EXPECT_EQ(verification["timed_verified"], true);
    EXPECT_EQ(verification["wrong_exchanges"], 0);
    // Per round one before and one after; every timed one.
    EXPECT_EQ(verification["exchanges"], kTimedRounds * (1 + 1) + kTimed);
    const std::vector<double> samples = result["samples_us"].get<std::vector<double>>();
    ASSERT_EQ(samples.size(), static_cast<std::size_t>(kTimed));

    const nlohmann::json& drift = result["drift"];
    ASSERT_TRUE(drift.is_object()) << result.dump();
    EXPECT_EQ(drift["window"], kWindow);
    EXPECT_EQ(drift["exchanges"], kTimed);
    const auto median = [](std::vector<double> values) {
      std::sort(values.begin(), values.end());
      const std::size_t n = values.size();
      return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
    };
    const double first = drift["first_median_us"].get<double>();
    const double last = drift["last_median_us"].get<double>();
    EXPECT_DOUBLE_EQ(first, median({samples.begin(), samples.begin() + kWindow}));
    EXPECT_DOUBLE_EQ(last, median({samples.end() - kWindow, samples.end()}));
    EXPECT_GT(first, 0.0);
    EXPECT_DOUBLE_EQ(drift["last_over_first"].get<double>(), last / first);
  }
}

// Each strategy over each transport of --transport, in rotation: the JSON says which transport
// every result asked for and used, and the node results are not set beside the MPI bound.
TEST_F(HaloBenchCli, EveryStrategyRunsOverEachTransportAndSaysWhich) {
  const auto [r, report] = run_short("--transport mpi,auto", "transports.json");
  ASSERT_FALSE(report.is_null());
  EXPECT_NE(r.out.find("transport"), std::string::npos) << r.out;
  const nlohmann::json& results = report["strategies"];
  ASSERT_EQ(results.size(), 4u);
  for (const nlohmann::json& result : results) {
    const std::string transport = result["transport"].get<std::string>();
    EXPECT_EQ(result["name"].get<std::string>(),
              result["strategy"].get<std::string>() + "/" + transport);
    EXPECT_TRUE(result["verification"]["passed"].get<bool>()) << result["name"];
    if (transport == "mpi") {
      EXPECT_EQ(result["transport_used"], "mpi");
      EXPECT_EQ(result["node_links"].get<int>(), 0);
      EXPECT_FALSE(result["model_bound_us"].is_null());
    } else {
      // Both ranks of one host are one node.
      EXPECT_EQ(result["transport_used"], "node");
      EXPECT_GT(result["node_links"].get<int>(), 0);
      EXPECT_EQ(result["mpi_links"].get<int>(), 0);
      // The shipped parameters have no node transport terms: no bound, rather than a wrong one.
      EXPECT_TRUE(result["model_bound_us"].is_null());
    }
  }
}

// --tuning auto: each flag strategy runs twice, as given and with the order of work chosen at
// set-up; the tuned row names its choice, which is the fastest candidate it measured where that
// beats the given order by the margin (else the given order), and keeps it in every round. The bulk strategies have no tuned row.
TEST_F(HaloBenchCli, TuneRunsEachFlagStrategyTunedBesideTheFixedOne) {
  const auto [r, report] = run_short("--transport mpi --tuning auto", "tune.json");
  ASSERT_FALSE(report.is_null());
  EXPECT_NE(r.out.find("tuning"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("resident:tuned: auto: "), std::string::npos) << r.out;
  EXPECT_EQ(report["parameters"]["tuning"], "auto");
  const nlohmann::json& results = report["strategies"];
  ASSERT_EQ(results.size(), 3u);
  EXPECT_EQ(results[0]["name"], "comb_fused");
  EXPECT_EQ(results[1]["name"], "resident");
  EXPECT_EQ(results[2]["name"], "resident:tuned");
  EXPECT_FALSE(results[1]["order_of_work"]["tuned"].get<bool>());
  const nlohmann::json& order = results[2]["order_of_work"];
  ASSERT_TRUE(order["tuned"].get<bool>()) << order.dump();
  // Over MPI on the host backend: receives first or on arrival, long sends at once or in turn,
  // and the given order with whole messages and MPI pieces of 8, 16 and 64 KiB.
  ASSERT_EQ(order["candidates"].size(), 8u) << order.dump();
  double fastest = 1e300;
  std::string fastest_order;
  for (const nlohmann::json& candidate : order["candidates"]) {
    ASSERT_FALSE(candidate["median_us"].is_null()) << candidate.dump();
    if (candidate["median_us"].get<double>() < fastest) {
      fastest = candidate["median_us"].get<double>();
      fastest_order = candidate["order"].get<std::string>();
    }
  }
  // The given order (the first candidate) stands unless another beats it by the margin.
  const nlohmann::json& given = order["candidates"][0];
  const std::string expected_order =
      fastest < given["median_us"].get<double>() * (1.0 - haloflag::halo::kTuningMargin)
          ? fastest_order
          : given["order"].get<std::string>();
  EXPECT_EQ(order["summary"].get<std::string>().rfind("auto: " + expected_order, 0), 0u)
      << order.dump();
  EXPECT_TRUE(results[2]["verification"]["passed"].get<bool>());
  EXPECT_EQ(results[2]["samples_us"].size(), 4u);
}

// Fewer than two windows of timed exchanges: no drift, and the table has no drift section. The
// progress line (here after every exchange) goes to stderr, never into the table. One round.
// --trace: the Chrome trace-event file has one slice per traced exchange and strategy, the
// device rows of the flag strategies, and the CPU state machine's MPI calls: each receive
// completes inside some MPI_Testsome, which is kept because it completed something.
TEST_F(HaloBenchCli, TraceShowsExchangesAndTheStateMachinesMpiCalls) {
  const fs::path trace_path = kScratch / "trace.json";
  const RunResult r = run_bench("--backend host --transport mpi --iterations 4 --rounds 1 "
                                "--trace-exchanges 3 --strategy comb_fused,resident --config " +
                                shell_quoted(kConfigs / "comb_200_np2_reduced.cfg") +
                                " --json '' --trace " + shell_quoted(trace_path));
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const nlohmann::json trace = nlohmann::json::parse(haloflag::test::read_text(trace_path));
  int resident_exchanges = 0;
  int receive_tests_completing = 0;
  for (const nlohmann::json& event : trace["traceEvents"]) {
    const std::string name = event["name"].get<std::string>();
    if (event["ph"] != "X") continue;
    if (name.rfind("resident exchange ", 0) == 0) ++resident_exchanges;
    if (name == "MPI_Testsome (receives)" && event["args"]["completed"].get<int>() > 0) {
      ++receive_tests_completing;
      EXPECT_GE(event["dur"].get<double>(), 0.0);
    }
  }
  // Rank 0 writes the kept exchanges of both ranks (--trace-kept 3 each).
  EXPECT_EQ(resident_exchanges, 2 * 3);
  EXPECT_GE(receive_tests_completing, 2 * 3) << "every traced exchange completes its receives";
}

TEST_F(HaloBenchCli, ShortRunsHaveNoDriftAndProgressGoesToStderr) {
  const fs::path json_path = kScratch / "short.json";
  const RunResult r = run_bench(
      "--backend host --strategy comb_fused --size 8 --vars 1 --warmup 1 --verify 1 "
      "--trace-exchanges 0 --rounds 1 --iterations 19 --drift-window 10 --progress 0.000001 --json " +
      shell_quoted(json_path));
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(r.out.find("drift ("), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("halo_bench: comb_fused: 19 of 19 timed exchanges, "), std::string::npos)
      << r.err;
  EXPECT_EQ(r.out.find("timed exchanges, "), std::string::npos) << r.out;
  const nlohmann::json report = nlohmann::json::parse(haloflag::test::read_text(json_path));
  EXPECT_TRUE(report["strategies"][0]["drift"].is_null()) << report["strategies"][0].dump();
  EXPECT_EQ(report["strategies"][0]["verification"]["timed_verified"], false);
  EXPECT_EQ(report["strategies"][0]["verification"]["exchanges"], 2);
}

// nccl on the host backend: `all` runs the others and the heading and the JSON say why nccl did
// not run; asked for alone, nothing is left to run and the run fails saying so. The model has no
// bound for it, which the library says (model::unmodelled_reason).
TEST_F(HaloBenchCli, NcclWhereItCannotRunIsLeftOutWithTheReason) {
  const std::string reason =
      haloflag::halo::strategy_unavailable(haloflag::halo::Strategy::nccl,
                                           haloflag::notify::Backend::host);
  ASSERT_FALSE(reason.empty());
  const fs::path json_path = kScratch / "nccl.json";
  const RunResult all = run_bench(
      "--backend host --strategy all --size 8 --vars 1 --warmup 1 --verify 1 "
      "--trace-exchanges 0 --iterations 2 --rounds 1 --json " + shell_quoted(json_path));
  ASSERT_EQ(all.exit_code, 0) << all.out << all.err;
  EXPECT_NE(all.out.find("not run     nccl: " + reason), std::string::npos) << all.out;
  const nlohmann::json report = nlohmann::json::parse(haloflag::test::read_text(json_path));
  EXPECT_EQ(report["strategies"].size(), haloflag::halo::all_strategies().size());
  const nlohmann::json& nccl = report["nccl"];
  ASSERT_EQ(nccl["strategies_not_run"].size(), 1u) << nccl.dump();
  EXPECT_EQ(nccl["strategies_not_run"][0]["strategy"], "nccl");
  EXPECT_EQ(nccl["strategies_not_run"][0]["reason"], reason);
  EXPECT_EQ(nccl["library"], "NCCL");

  const RunResult alone = run_bench(
      "--backend host --strategy nccl --size 8 --vars 1 --iterations 2 --json ''");
  EXPECT_EQ(alone.exit_code, 1) << alone.out << alone.err;
  EXPECT_NE(alone.out.find("not run     nccl: " + reason), std::string::npos) << alone.out;
  EXPECT_NE(alone.err.find("every strategy asked for was left out"), std::string::npos)
      << alone.err;

  const RunResult help = run_bench("--help");
  EXPECT_NE(help.out.find("resident, nccl"), std::string::npos) << help.out;
}

// More rounds than timed exchanges: one timed exchange per round, as many rounds as exchanges.
TEST_F(HaloBenchCli, RoundsNeverOutnumberTheTimedExchanges) {
  const fs::path json_path = kScratch / "rounds.json";
  const RunResult r = run_bench(
      "--backend host --strategy comb_fused,resident --size 8 --vars 1 --warmup 1 --verify 1 "
      "--trace-exchanges 0 --iterations 3 --rounds 5 --json " + shell_quoted(json_path));
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const nlohmann::json report = nlohmann::json::parse(haloflag::test::read_text(json_path));
  EXPECT_EQ(report["parameters"]["rounds"], 3);
  for (const nlohmann::json& result : report["strategies"]) {
    SCOPED_TRACE(result["name"].get<std::string>());
    EXPECT_EQ(result["samples_us"].size(), 3u);
    EXPECT_EQ(result["verification"]["exchanges"], 3 * (1 + 1));
  }
}

TEST_F(HaloBenchCli, MalformedOptionsFailWithAMessage) {
  RunResult r = run_bench("--backend host --iterations many --json ''");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("--iterations"), std::string::npos) << r.err;

  r = run_bench("--backend host --strategy fastest --json ''");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("unknown strategy 'fastest'"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("stream_notify"), std::string::npos) << r.err;  // the valid choices

  r = run_bench("--backend host --drift-window 0 --json ''");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("--drift-window"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("must be an integer >= 1, got '0'"), std::string::npos) << r.err;

  r = run_bench("--backend host --long-receives later --json ''");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("--long-receives"), std::string::npos) << r.err;

  r = run_bench("--backend host --rounds 0 --json ''");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("--rounds"), std::string::npos) << r.err;

  r = run_bench("--backend host --progress -1 --json ''");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("--progress"), std::string::npos) << r.err;

  r = run_bench("--backend host --size 1,2 --json ''");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("--size: takes N or X,Y,Z"), std::string::npos) << r.err;
  EXPECT_EQ(r.out.find("median"), std::string::npos) << r.out;  // nothing was measured
}

// Fields too large for the machine: refused before anything is allocated, with the rank, the
// size asked for and the memory available (it once ended in "std::bad_alloc" and nothing else).
TEST_F(HaloBenchCli, FieldsTooLargeForTheMachineAreRefusedWithTheirSize) {
  const RunResult r = run_bench("--backend host --size 100000 --json ''");
  EXPECT_NE(r.exit_code, 0);
  const std::string output = r.out + r.err;
  EXPECT_NE(output.find("[rank 0] halo_bench: device fields of 50002x100002x100002 cells x 3 "
                        "variables (host backend) needs"),
            std::string::npos)
      << output;
  EXPECT_NE(output.find("is available (MemAvailable)"), std::string::npos) << output;
  EXPECT_EQ(output.find("bad_alloc"), std::string::npos) << output;
}

// An output path that cannot be written ends the run on both ranks before any exchange, naming
// the option, the path and why, so that no run's results are lost at its end; each kind of bad
// path is refused, and good paths get their files.
TEST_F(HaloBenchCli, OutputPathsThatCannotBeWrittenEndTheRunBeforeAnyExchange) {
  fs::create_directories(kScratch);
  const fs::path plain_file = kScratch / "plain_file";
  { std::ofstream(plain_file) << "not a folder\n"; }
  struct Case {
    std::string option;
    fs::path path;
    std::string why;
  };
  const std::vector<Case> cases = {
      {"--json", kScratch / "no such folder" / "report.json",
       "the folder " + (kScratch / "no such folder").string() + " does not exist"},
      {"--trace", kScratch / "no such folder" / "trace.json", "does not exist"},
      {"--json", plain_file / "report.json", plain_file.string() + " is not a folder"},
      {"--json", kScratch, "names a folder, not a file"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.option + " " + c.path.string());
    // Every strategy asked for, so that a late check would have run them all first.
    const RunResult r = run_bench("--backend host --strategy all --size 8 --vars 1 --warmup 1 "
                                  "--verify 1 --rounds 1 --iterations 3 " +
                                  c.option + " " + shell_quoted(c.path));
    EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
    EXPECT_NE(r.err.find("[rank 0] halo_bench: " + c.option + " " + c.path.string() + ": "),
              std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find(c.why), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("checked before anything is measured"), std::string::npos) << r.err;
    EXPECT_EQ(r.out.find("median"), std::string::npos) << r.out;  // nothing was measured
    EXPECT_EQ(r.err.find("cannot write the JSON file"), std::string::npos) << r.err;
  }
  EXPECT_FALSE(fs::exists(kScratch / "no such folder"));

  const fs::path json_path = kScratch / "report.json";
  const fs::path trace_path = kScratch / "trace.json";
  const RunResult good = run_bench(
      "--backend host --strategy comb_fused --size 8 --vars 1 --warmup 1 --verify 1 "
      "--trace-exchanges 2 --rounds 1 --iterations 3 --json " + shell_quoted(json_path) +
      " --trace " + shell_quoted(trace_path));
  ASSERT_EQ(good.exit_code, 0) << good.out << good.err;
  EXPECT_EQ(nlohmann::json::parse(haloflag::test::read_text(json_path))["format"],
            "haloflag-halo-bench");
  EXPECT_FALSE(nlohmann::json::parse(haloflag::test::read_text(trace_path)).empty());
}

// Single precision: a geometry's values, or the shipped config's resized, are 4 bytes; every
// exchange is verified (through the verifier's encoding) and the messages are half as large.
TEST_F(HaloBenchCli, SinglePrecisionRunsAreVerifiedWithHalfTheBytes) {
  const auto [geometry_run, report] = run_short("--element-bytes 4 --verify-each", "float.json");
  ASSERT_FALSE(report.is_null());
  EXPECT_NE(geometry_run.out.find("1 vars of 4 B"), std::string::npos) << geometry_run.out;
  for (const auto& strategy : report["strategies"]) {
    EXPECT_EQ(strategy["verification"]["timed_verified"], true) << strategy.dump();
  }
  const fs::path json_path = kScratch / "config_float.json";
  const RunResult config_run = run_bench(
      "--backend host --strategy comb_fused,stream_notify --element-bytes 4 --warmup 1 "
      "--verify 2 --iterations 3 --rounds 1 --trace-exchanges 0 --config " +
      shell_quoted(kConfigs / "comb_200_np2_reduced.cfg") + " --json " + shell_quoted(json_path));
  ASSERT_EQ(config_run.exit_code, 0) << config_run.out << config_run.err;
  EXPECT_NE(config_run.out.find("3 vars of 4 B"), std::string::npos) << config_run.out;
  EXPECT_NE(config_run.out.find("ok (3)"), std::string::npos) << config_run.out;  // 2 before, 1 after
}

TEST_F(HaloBenchCli, ConfigForAnotherRankCountIsRefused) {
  const RunResult r = run_bench("--backend host --json '' --config " +
                                shell_quoted(kConfigs / "comb_200_np4.cfg"));
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("is a config for 4 ranks, but this run has 2"), std::string::npos) << r.err;
}

// The parameter file by this machine's key: none in the folders searched (the paper's file then,
// no prediction, and the heading says how to calibrate), then one with schedule terms (a
// prediction per row, its phases adding up).
TEST_F(HaloBenchCli, PredictionUsesThisMachinesParametersOrSaysHowToMakeThem) {
  const fs::path params_dir = kScratch / "params";
  fs::create_directories(params_dir);
  ::setenv("HALOFLAG_PARAMS_DIR", params_dir.c_str(), 1);
  ::setenv("XDG_CACHE_HOME", (kScratch / "cache").c_str(), 1);

  const auto [before, none] = run_short("--transport mpi,node", "no_params.json");
  ASSERT_FALSE(none.is_null());
  const std::string key = none["model"]["params_key"].get<std::string>();
  EXPECT_EQ(key.rfind("host__", 0), 0u) << key;
  EXPECT_EQ(none["model"]["params_for_this_machine"], false);
  EXPECT_NE(none["model"]["params_how"].get<std::string>().find("scripts/calibrate_machine.sh"),
            std::string::npos);
  EXPECT_NE(before.out.find("prediction  none"), std::string::npos) << before.out;
  for (const nlohmann::json& result : none["strategies"]) {
    EXPECT_TRUE(result["prediction"].is_null()) << result["name"];
    EXPECT_FALSE(result["prediction_unavailable_reason"].get<std::string>().empty());
  }

  fs::copy_file(HALOFLAG_SCHEDULE_PARAMS, params_dir / (key + ".json"));
  const auto [after, found] = run_short("--transport mpi,node", "params.json");
  ::unsetenv("HALOFLAG_PARAMS_DIR");
  ::unsetenv("XDG_CACHE_HOME");
  ASSERT_FALSE(found.is_null());
  EXPECT_EQ(found["model"]["params_for_this_machine"], true);
  EXPECT_EQ(found["model"]["params_file"], fs::absolute(params_dir / (key + ".json")).string());
  EXPECT_NE(after.out.find("predicted us"), std::string::npos) << after.out;
  ASSERT_EQ(found["strategies"].size(), 4u);  // comb_fused and resident over mpi and node
  for (const nlohmann::json& result : found["strategies"]) {
    SCOPED_TRACE(result["name"].get<std::string>());
    const nlohmann::json& prediction = result["prediction"];
    ASSERT_TRUE(prediction.is_object()) << result.dump();
    double phases_us = 0.0;
    for (const nlohmann::json& phase : prediction["phases"]) phases_us += phase["us"].get<double>();
    EXPECT_NEAR(phases_us, prediction["predicted_us"].get<double>(), 1e-6);
    EXPECT_EQ(prediction["transport"], result["transport_used"]);
    EXPECT_GT(result["predicted_over_measured"].get<double>(), 0.0);
  }
  // The fixture measured comb_fused's fixed cost over both transports and resident's over MPI.
  EXPECT_EQ(found["strategies"][0]["prediction"]["fixed_measured"], true);
  EXPECT_DOUBLE_EQ(found["strategies"][0]["prediction"]["fixed_us"].get<double>(), 40.0);
}

}  // namespace
