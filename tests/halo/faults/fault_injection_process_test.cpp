// A rank that exits in the middle of an exchange, for every strategy on the
// host backend: halo_fault_injection_driver runs under mpiexec, one rank starts exchange 3 and
// leaves the process as a crash would. Two things must hold:
//  - under the launcher's default policy the job ends, non-zero, and nothing hangs;
//  - with the launcher told to keep the other ranks running (Open MPI's
//    orte_abort_on_non_zero_status=0, MPICH's -disable-auto-cleanup), every surviving rank
//    ends its exchange at the deadline with an error naming itself, the exchange and every
//    message it misses from the dead rank (peer, tag, bytes, direction), and the job exits
//    non-zero.
// With HALOFLAG_TEST_BACKEND naming a GPU backend, PeerDeathOnTheGpu runs 2 ranks, one per GPU:
// the peer dies (std::_Exit or SIGKILL) in the middle of exchanges whose kernels write into its
// mapped memory; the survivor must fail as above within its deadline, and its GPU must still run
// a kernel once its Exchange is gone. On one GPU under MPS the survivor's context cannot
// survive a client that dies with work on the GPU (MPS's error containment): there it must
// still fail within its deadline, saying where.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <regex>
#include <sstream>
#include <string>

#include "haloflag/halo/strategy.hpp"
#include "haloflag/notify/backend.hpp"
#include "run_command.hpp"
#include "test_exit_code.hpp"

#if !defined(HALOFLAG_FAULT_DRIVER) || !defined(HALOFLAG_MPIEXEC) || \
    !defined(HALOFLAG_MPIEXEC_NUMPROC_FLAG)
#error "tests/halo/faults/CMakeLists.txt names the driver and mpiexec"
#endif

namespace {

namespace fs = std::filesystem;
using haloflag::halo::Strategy;
using haloflag::test::RunResult;
using haloflag::test::shell_quoted;

constexpr int kTimeoutMs = 2000;
constexpr double kTimeoutSeconds = kTimeoutMs / 1000.0;
constexpr double kLateness = 3.0;  // oversubscribed: 3 ranks and their threads on 2 cores
// Start-up of mpiexec and MPI on an oversubscribed machine, on top of the deadline.
constexpr double kJobOverhead = 30.0;
constexpr int kDyingRank = 1;
constexpr int kDyingExchange = 3;

const fs::path kScratch =
    fs::temp_directory_path() / ("haloflag_fault_injection_process_" + std::to_string(::getpid()));

// The backend the driver runs on: HALOFLAG_TEST_BACKEND, which it inherits.
std::string test_backend_name() {
  const char* name = std::getenv("HALOFLAG_TEST_BACKEND");
  return name == nullptr ? "host" : name;
}

// The launcher option that keeps the other ranks running when one exits, or "" with `why_not`
// saying why none is known.
struct KeepGoingOption {
  std::string option;
  std::string why_not;
};

const KeepGoingOption& keep_going_option() {
  static const KeepGoingOption found = [] {
    const RunResult version = haloflag::test::run_command(HALOFLAG_MPIEXEC, "--version", kScratch);
    const std::string text = version.out + version.err;
    if (text.find("OpenRTE") != std::string::npos) {
      return KeepGoingOption{"--mca orte_abort_on_non_zero_status 0", ""};
    }
    if (text.find("HYDRA") != std::string::npos) {
      return KeepGoingOption{"-disable-auto-cleanup", ""};
    }
    return KeepGoingOption{"", "no option known to keep the survivors of a dead rank running for "
                               "this launcher (" HALOFLAG_MPIEXEC " --version: " +
                                   text.substr(0, text.find('\n')) + ")"};
  }();
  return found;
}

struct JobResult {
  RunResult run;
  double seconds = 0;
};

JobResult run_job(int ranks, const std::string& launcher_option, Strategy strategy,
                  const std::string& how_to_die = "exit") {
  std::string arguments = launcher_option + " " + HALOFLAG_MPIEXEC_NUMPROC_FLAG + " " +
                          std::to_string(ranks) + " " + shell_quoted(HALOFLAG_FAULT_DRIVER) +
                          " " + std::string(to_string(strategy)) + " " +
                          std::to_string(kTimeoutMs) + " " + std::to_string(kDyingRank) + " " +
                          std::to_string(kDyingExchange) + " " + how_to_die;
  const auto started = std::chrono::steady_clock::now();
  JobResult job;
  job.run = haloflag::test::run_command(HALOFLAG_MPIEXEC, arguments, kScratch);
  job.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return job;
}

// The lines one rank printed, without their "[rank R] " prefix.
std::string text_of_rank(const std::string& output, int rank) {
  const std::string prefix = "[rank " + std::to_string(rank) + "] ";
  std::istringstream lines(output);
  std::string text;
  for (std::string line; std::getline(lines, line);) {
    const auto at = line.find(prefix);
    if (at != std::string::npos) text += line.substr(at + prefix.size()) + "\n";
  }
  return text;
}

// A survivor's lines: "exchange 3 failed after 2.004 s: rank 0, exchange 3 (stream_notify on
// host): timed out after ...", within the deadline, naming every message it misses from the
// dead rank. Resident pack blocks that already wait for exchange 4 time out at the same moment,
// so their device-side wait may head the error instead; the messages follow alike. Over the node
// transport the dead rank's kernels may have delivered exchange 3 before it died; then exchange
// 4, which it never started, fails so.
void expect_deadline_error_naming_the_dead_rank(const std::string& output, int rank,
                                                Strategy strategy) {
  const std::string text = text_of_rank(output, rank);
  const std::string r = std::to_string(rank);
  const std::string e = std::regex_search(text, std::regex("exchange 3 completed")) ? "4" : "3";
  const std::regex failure("exchange " + e + " failed after ([0-9.]+) s: rank " + r +
                           ", exchange " + e + " \\(" + std::string(to_string(strategy)) +
                           " on [a-z]+\\): [^\n]*timed out after");
  std::smatch match;
  ASSERT_TRUE(std::regex_search(text, match, failure)) << "rank " << r << ":\n" << output;
  const double seconds = std::stod(match[1].str());
  EXPECT_GE(seconds, 0.9 * kTimeoutSeconds) << text;
  EXPECT_LT(seconds, kTimeoutSeconds + kLateness) << text;
  // Every survivor of the periodic cube receives from the dead rank; each such message is
  // named with its tag, size and the side it comes from. Over the node transport a receive is
  // "not announced by the sender" (bulk strategies) or "not confirmed" (flag strategies: only
  // the GPUs know which node messages are done).
  const std::regex missing("receive from peer " + std::to_string(kDyingRank) +
                           " tag [0-9]+ \\([0-9]+ bytes, from [-+xyz]+\\): "
                           "(not received|not announced by the sender|node transport, not "
                           "confirmed)");
  EXPECT_TRUE(std::regex_search(text, missing)) << "rank " << r << ":\n" << text;
}

// A job whose rank 1 exited in exchange 3: it ends non-zero within the deadline and the job's
// start-up, and the dying rank said where it died.
void expect_job_ended_after_the_exit(const JobResult& job, const std::string& output) {
  EXPECT_NE(job.run.exit_code, 0) << output;
  EXPECT_LT(job.seconds, kTimeoutSeconds + kJobOverhead) << output;
  EXPECT_NE(text_of_rank(output, kDyingRank).find("exits in the middle of exchange 3"),
            std::string::npos)
      << output;
}

class EveryStrategy : public testing::TestWithParam<Strategy> {
 protected:
  void TearDown() override { fs::remove_all(kScratch); }
};

TEST_P(EveryStrategy, RankExitingMidExchangeEndsTheJobUnderTheLaunchersDefaultPolicy) {
  const JobResult job = run_job(2, "", GetParam());
  expect_job_ended_after_the_exit(job, job.run.out + job.run.err);
}

TEST_P(EveryStrategy, RankExitingMidExchangeLeavesEverySurvivorWithADeadlineErrorNamingIt) {
  if (test_backend_name() != "host") {
    GTEST_SKIP() << "3 ranks on the host backend only (PeerDeathOnTheGpu covers GPU backends)";
  }
  const KeepGoingOption& keep_going = keep_going_option();
  if (keep_going.option.empty()) GTEST_SKIP() << keep_going.why_not;
  constexpr int kRanks = 3;
  const JobResult job = run_job(kRanks, keep_going.option, GetParam());
  const std::string output = job.run.out + job.run.err;
  EXPECT_NE(job.run.exit_code, 0) << output;
  EXPECT_LT(job.seconds, kTimeoutSeconds + kJobOverhead) << output;
  for (int rank = 0; rank < kRanks; ++rank) {
    if (rank != kDyingRank) expect_deadline_error_naming_the_dead_rank(output, rank, GetParam());
  }
}

INSTANTIATE_TEST_SUITE_P(Strategies, EveryStrategy,
                         testing::ValuesIn(haloflag::halo::all_strategies().begin(),
                                           haloflag::halo::all_strategies().end()),
                         [](const testing::TestParamInfo<Strategy>& param) {
                           return std::string(to_string(param.param));
                         });

// Strategy::embedded's whole exchange, started by the kernels themselves with no host call per
// exchange: the dying rank's process ends while its kernel runs exchange 3, and each survivor's
// kernel must end at its deadline, its finish() naming the dead rank's messages. 3 ranks on one
// node: node and self peers, or with HALOFLAG_TEST_TRANSPORT=mpi every peer over MPI, whose CPU
// state machine finish() drives beside the kernel.
TEST(EmbeddedWholeExchange, PeerDyingInsideTheKernelLeavesEverySurvivorWithADeadlineError) {
  if (test_backend_name() != "host") {
    GTEST_SKIP() << "3 ranks on the host backend only (PeerDeathOnTheGpu covers GPU backends)";
  }
  const KeepGoingOption& keep_going = keep_going_option();
  if (keep_going.option.empty()) GTEST_SKIP() << keep_going.why_not;
  constexpr int kRanks = 3;
  const JobResult job = run_job(kRanks, keep_going.option, Strategy::embedded);
  const std::string output = job.run.out + job.run.err;
  expect_job_ended_after_the_exit(job, output);
  for (int rank = 0; rank < kRanks; ++rank) {
    if (rank != kDyingRank) {
      expect_deadline_error_naming_the_dead_rank(output, rank, Strategy::embedded);
    }
  }
  fs::remove_all(kScratch);
}

// The survivor on its own GPU, the dead peer's memory mapped (transport auto: over the node
// transport with its direct placement where the GPUs allow it).
struct GpuDeath {
  Strategy strategy;
  const char* how;  // "exit" or "kill"
};

class PeerDeathOnTheGpu : public testing::TestWithParam<GpuDeath> {
 protected:
  void TearDown() override { fs::remove_all(kScratch); }
};

TEST_P(PeerDeathOnTheGpu, SurvivorFailsWithinItsDeadlineNamingThePeerAndItsGpuStillRunsKernels) {
  if (test_backend_name() == "host") {
    GTEST_SKIP() << "HALOFLAG_TEST_BACKEND names no GPU backend";
  }
  std::string why_not;
  const int gpus = haloflag::notify::gpu_device_count(&why_not);
  if (gpus == 0) GTEST_SKIP() << "no GPU: " << why_not;
  const KeepGoingOption& keep_going = keep_going_option();
  if (keep_going.option.empty()) GTEST_SKIP() << keep_going.why_not;
  const JobResult job = run_job(2, keep_going.option, GetParam().strategy, GetParam().how);
  const std::string output = job.run.out + job.run.err;
  // The driver's ranks exit 77 when they cannot use the GPU, which the launcher may not pass on.
  if (job.run.exit_code == haloflag::test::kSkippedExitCode ||
      output.find("SKIP: ") != std::string::npos) {
    GTEST_SKIP() << output;
  }
  EXPECT_NE(job.run.exit_code, 0) << output;
  EXPECT_LT(job.seconds, 2 * kTimeoutSeconds + kJobOverhead) << output;
  EXPECT_NE(text_of_rank(output, kDyingRank).find(std::string(GetParam().how) == "kill"
                                                      ? "is killed in the middle of exchange 3"
                                                      : "exits in the middle of exchange 3"),
            std::string::npos)
      << output;
  if (gpus >= 2) {
    expect_deadline_error_naming_the_dead_rank(output, 0, GetParam().strategy);
    EXPECT_NE(text_of_rank(output, 0).find("GPU usable after the failure: a kernel ran"),
              std::string::npos)
        << output;
    return;
  }
  // Both ranks on one GPU under MPS: a client that dies with work on the GPU is a fatal fault
  // for every client of that GPU (MPS's error containment), so the survivor's context is lost.
  // What still holds: it fails within its deadline, saying where, and does not hang.
  const std::string text = text_of_rank(output, 0);
  const std::regex failure("exchange [34] failed after ([0-9.]+) s: rank 0, exchange [34] \\(" +
                           std::string(to_string(GetParam().strategy)) +
                           " on [a-z]+\\): [^\n]*(timed out after|\\.cu:[0-9]+: )");
  std::smatch match;
  ASSERT_TRUE(std::regex_search(text, match, failure)) << output;
  EXPECT_LT(std::stod(match[1].str()), kTimeoutSeconds + kLateness) << text;
  EXPECT_NE(text.find("GPU "), std::string::npos) << "no line on the GPU after the failure:\n"
                                                  << output;
}

INSTANTIATE_TEST_SUITE_P(Deaths, PeerDeathOnTheGpu,
                         testing::Values(GpuDeath{Strategy::resident, "exit"},
                                         GpuDeath{Strategy::resident, "kill"},
                                         GpuDeath{Strategy::stream_notify, "exit"},
                                         GpuDeath{Strategy::stacked_notify, "kill"},
                                         GpuDeath{Strategy::embedded, "exit"},
                                         GpuDeath{Strategy::embedded, "kill"}),
                         [](const testing::TestParamInfo<GpuDeath>& param) {
                           return std::string(to_string(param.param.strategy)) + "_" +
                                  param.param.how;
                         });

}  // namespace
