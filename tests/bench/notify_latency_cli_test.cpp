// notify_latency on the backend present: a short run on the host backend always, and on the GPU
// when there is one; the JSON report must carry the machine, every parameter, each measurement
// with positive medians, p99 >= median and its samples, and (GPU only) the launch rows and the
// same-run ratios. Bad options and a GPU that is not there end with a message and exit status 2.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "haloflag/notify/backend.hpp"
#include "run_command.hpp"

#if !defined(HALOFLAG_NOTIFY_LATENCY)
#error "tests/bench/CMakeLists.txt names the notify_latency executable"
#endif

namespace {

namespace fs = std::filesystem;
namespace hn = haloflag::notify;

using haloflag::test::RunResult;
using haloflag::test::shell_quoted;

const fs::path kScratch =
    fs::temp_directory_path() / ("haloflag_notify_latency_cli_test_" + std::to_string(::getpid()));

constexpr int kIterations = 200;
constexpr int kWarmup = 20;
constexpr int kOpsPerSample = 10;
constexpr int kUsageExitCode = 2;

const std::vector<std::string> kMeasuredEverywhere = {"cpu_read_write", "device_read_write",
                                                      "round_trip", "one_way_host_to_device",
                                                      "one_way_device_to_host"};
const std::vector<std::string> kMeasuredOnGpu = {"empty_kernel_launch_sync", "graph_launch_sync"};

RunResult run_latency(const std::string& arguments) {
  return haloflag::test::run_command(HALOFLAG_NOTIFY_LATENCY, arguments, kScratch);
}

// A short run with a JSON report; the deadline is generous because the host backend's threads
// share the cores with whatever else CTest runs.
nlohmann::json run_and_read_report(const std::string& backend, RunResult& result) {
  const fs::path json_path = kScratch / ("report_" + backend + ".json");
  result = run_latency("--backend " + backend + " --iterations " + std::to_string(kIterations) +
                       " --warmup " + std::to_string(kWarmup) + " --ops-per-sample " +
                       std::to_string(kOpsPerSample) + " --timeout 60 --json " +
                       shell_quoted(json_path));
  if (result.exit_code != 0) return nullptr;
  return nlohmann::json::parse(haloflag::test::read_text(json_path));
}

const nlohmann::json& find_measurement(const nlohmann::json& report, const std::string& id) {
  for (const nlohmann::json& measurement : report["measurements"]) {
    if (measurement["id"] == id) return measurement;
  }
  ADD_FAILURE() << "no measurement '" << id << "' in the report";
  static const nlohmann::json missing;
  return missing;
}

void expect_measured(const nlohmann::json& report, const std::string& id) {
  SCOPED_TRACE(id);
  const nlohmann::json& measurement = find_measurement(report, id);
  ASSERT_TRUE(measurement.is_object());
  ASSERT_EQ(measurement["measured"], true) << measurement.dump();
  EXPECT_FALSE(measurement["title"].get<std::string>().empty());
  EXPECT_FALSE(measurement["clock"].get<std::string>().empty());
  EXPECT_FALSE(measurement["sample"].get<std::string>().empty());
  const nlohmann::json& summary = measurement["summary_ns"];
  EXPECT_EQ(summary["count"], kIterations);
  for (const char* key : {"median", "p10", "p90", "p99", "min", "max", "mean"}) {
    EXPECT_TRUE(summary[key].is_number()) << key;
  }
  EXPECT_GT(summary["median"].get<double>(), 0.0);
  EXPECT_GE(summary["p99"].get<double>(), summary["median"].get<double>());
  EXPECT_LE(summary["p10"].get<double>(), summary["median"].get<double>());
  EXPECT_LE(summary["median"].get<double>(), summary["p90"].get<double>());
  EXPECT_LE(summary["min"].get<double>(), summary["p10"].get<double>());
  EXPECT_EQ(measurement["samples_ns"].size(), static_cast<std::size_t>(kIterations));
}

void expect_common_fields(const nlohmann::json& report) {
  EXPECT_EQ(report["format"], "haloflag-notify-latency");
  EXPECT_EQ(report["version"], 1);
  EXPECT_FALSE(report["date"].get<std::string>().empty());
  EXPECT_FALSE(report["command_line"].empty());
  EXPECT_FALSE(report["build"]["haloflag_version"].get<std::string>().empty());
  EXPECT_FALSE(report["machine"]["hostname"].get<std::string>().empty());
  EXPECT_FALSE(report["backend"]["device_side"].get<std::string>().empty());
  const nlohmann::json& parameters = report["parameters"];
  EXPECT_EQ(parameters["iterations"], kIterations);
  EXPECT_EQ(parameters["warmup"], kWarmup);
  EXPECT_EQ(parameters["ops_per_sample"], kOpsPerSample);
  EXPECT_EQ(parameters["host_wait"], "spin");
  EXPECT_DOUBLE_EQ(parameters["timeout_s"].get<double>(), 60.0);
  EXPECT_EQ(find_measurement(report, "cpu_read_write")["ops_per_sample"], kOpsPerSample);
  for (const std::string& id : kMeasuredEverywhere) expect_measured(report, id);
  EXPECT_TRUE(report["one_way_alignment"]["method"].is_string());
}

class NotifyLatencyCli : public testing::Test {
 protected:
  void TearDown() override { fs::remove_all(kScratch); }
};

TEST_F(NotifyLatencyCli, HostBackendMeasuresTheFlagsAndSaysItIsNoGpu) {
  RunResult result;
  const nlohmann::json report = run_and_read_report("host", result);
  ASSERT_EQ(result.exit_code, 0) << result.out << result.err;
  EXPECT_NE(result.out.find("not GPU results"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("Table 1"), std::string::npos) << result.out;

  expect_common_fields(report);
  EXPECT_EQ(report["backend"]["name"], "host");
  EXPECT_EQ(report["backend"]["emulated_on_cpu"], true);
  EXPECT_TRUE(report["machine"]["gpu"].is_null());
  // One clock on both sides: the one-way split is exact.
  EXPECT_EQ(report["one_way_alignment"]["device_minus_host_ns"], 0);
  for (const std::string& id : kMeasuredOnGpu) {
    const nlohmann::json& measurement = find_measurement(report, id);
    EXPECT_EQ(measurement["measured"], false) << id;
    EXPECT_NE(measurement["skipped_reason"].get<std::string>().find("host backend"),
              std::string::npos);
  }
  EXPECT_TRUE(report["ratios"]["empty_kernel_launch_sync_over_round_trip"].is_null());
  EXPECT_EQ(report["targets"]["judged"], false);
}

TEST_F(NotifyLatencyCli, GpuBackendMeasuresTable1RoundTripsAndLaunches) {
  std::string why;
  if (hn::gpu_device_count(&why) == 0) GTEST_SKIP() << "no GPU: " << why;
  RunResult result;
  const nlohmann::json report = run_and_read_report("auto", result);
  ASSERT_EQ(result.exit_code, 0) << result.out << result.err;
  EXPECT_EQ(result.out.find("not GPU results"), std::string::npos) << result.out;

  expect_common_fields(report);
  EXPECT_NE(report["backend"]["name"], "host");
  EXPECT_EQ(report["backend"]["emulated_on_cpu"], false);
  const nlohmann::json& gpu = report["machine"]["gpu"];
  ASSERT_TRUE(gpu.is_object());
  EXPECT_FALSE(gpu["name"].get<std::string>().empty());
  EXPECT_FALSE(gpu["driver_version"].get<std::string>().empty());
  EXPECT_GT(report["clocks"]["device_smallest_step_ns"].get<double>(), 0.0);
  for (const std::string& id : kMeasuredOnGpu) expect_measured(report, id);
  EXPECT_GT(report["ratios"]["empty_kernel_launch_sync_over_round_trip"].get<double>(), 0.0);
  EXPECT_GT(report["ratios"]["graph_launch_sync_over_round_trip"].get<double>(), 0.0);
  EXPECT_GE(report["one_way_alignment"]["uncertainty_ns"].get<double>(), 0.0);
  EXPECT_EQ(report["targets"]["judged"], true);
}

TEST_F(NotifyLatencyCli, BadOptionsFailWithAMessage) {
  RunResult r = run_latency("--backend host --iterations many");
  EXPECT_EQ(r.exit_code, kUsageExitCode);
  EXPECT_NE(r.err.find("--iterations"), std::string::npos) << r.err;

  r = run_latency("--backend host --iterations 0");
  EXPECT_EQ(r.exit_code, kUsageExitCode);
  EXPECT_NE(r.err.find("--iterations"), std::string::npos) << r.err;

  r = run_latency("--backend quantum");
  EXPECT_EQ(r.exit_code, kUsageExitCode);
  EXPECT_NE(r.err.find("--backend"), std::string::npos) << r.err;

  r = run_latency("--backend host --host-wait sleep");
  EXPECT_EQ(r.exit_code, kUsageExitCode);
  EXPECT_NE(r.err.find("--host-wait"), std::string::npos) << r.err;

  r = run_latency("--backend host --no-such-option");
  EXPECT_EQ(r.exit_code, kUsageExitCode);
  EXPECT_NE(r.err.find("--no-such-option"), std::string::npos) << r.err;
  EXPECT_EQ(r.out.find("median"), std::string::npos) << r.out;  // nothing was measured
}

TEST_F(NotifyLatencyCli, AskingForAGpuThatIsNotThereFailsWithAMessage) {
  std::string why;
  if (hn::gpu_device_count(&why) > 0) {
    const RunResult r = run_latency("--backend auto --gpu 1023 --iterations 1");
    EXPECT_EQ(r.exit_code, kUsageExitCode);
    EXPECT_NE(r.err.find("--gpu 1023"), std::string::npos) << r.err;
    return;
  }
  for (const char* backend : {"cuda", "hip"}) {
    const RunResult r = run_latency(std::string("--backend ") + backend + " --iterations 1");
    EXPECT_EQ(r.exit_code, kUsageExitCode) << backend;
    EXPECT_NE(r.err.find(std::string("--backend ") + backend), std::string::npos) << r.err;
  }
}

// Checked before anything is measured, so that a typo does not cost the run.
TEST_F(NotifyLatencyCli, UnwritableReportFailsWithAMessageBeforeMeasuring) {
  const fs::path json_path = kScratch / "no_such_folder" / "report.json";
  const RunResult r = run_latency("--backend host --iterations 5 --warmup 0 --json " +
                                  shell_quoted(json_path));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("notify_latency: --json " + json_path.string() + ": the folder " +
                       json_path.parent_path().string() + " does not exist"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(r.out.find("median"), std::string::npos) << r.out;  // nothing was measured
}

}  // namespace
