// interference: the CPU/GPU memory interference microbenchmark of the paper's section 4.3. Two
// ranks; rank 0 times MPI_Send of one buffer in pinned host memory while its GPU writes pinned
// host memory in one of the scenarios (scenario.hpp), rank 1 receives. Rank 0 prints the table
// and writes the JSON report. Options and output: bench/README.md.
//
// Exit status: 0 when every case ran and every checked buffer arrived intact; 1 when one did
// not, or a set-up or measurement step failed; 2 for bad options or a request that cannot run
// here. A failure inside a case (a missed deadline, a GPU or MPI error) aborts both ranks with
// MPI_Abort, so neither is left waiting.
#include <CLI/CLI.hpp>
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "haloflag/bench/mpi_program.hpp"
#include "haloflag/bench/setup_agreement.hpp"
#include "haloflag/bench/usage_error.hpp"
#include "haloflag/halo/gpu_binding.hpp"
#include "report_json.hpp"
#include "report_table.hpp"
#include "send_rounds.hpp"

namespace {

using namespace haloflag;
using namespace haloflag::bench;
using namespace haloflag::bench::interference;

constexpr const char* kProgram = "interference";

// Raised before MPI_Abort so that a kernel still writing stops at its next look.
notify::ControlBlock* g_sender_control = nullptr;

void stop_sender_kernel() {
  if (g_sender_control != nullptr) g_sender_control->raise_abort();
}

// The shared abort, after the sender's abort flag.
[[noreturn]] void abort_run(int rank, const std::string& what) {
  stop_sender_kernel();
  bench::abort_run(kProgram, rank, what);
}

int run_interference(int argc, char** argv) {
  const MPI_Comm comm = MPI_COMM_WORLD;
  int rank = 0;
  int ranks = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &ranks);

  CLI::App app{"interference: time of one MPI_Send from pinned host memory while the sender's "
               "GPU writes pinned host memory (SSB, PSB, PCB, P2AB; stream and stacked access; "
               "concurrent copies), median, p10 and p90 per case with the slowdown over the "
               "no-GPU baseline of the same run. Two ranks: rank 0 sends, rank 1 receives."};
  RunReport report;
  if (const auto exit_code = parse_on_every_rank(app, kProgram, rank, [&] {
        report.options = parse_interference_options(app, argc, argv);
      })) {
    return *exit_code;
  }
  const InterferenceOptions& options = report.options;
  report.command_line.assign(argv, argv + argc);
  if (ranks != 2) {
    if (rank == 0) {
      std::cerr << "interference: needs exactly 2 ranks (rank 0 sends, rank 1 receives); this "
                   "run has "
                << ranks << "\n";
    }
    return kUsageExitCode;
  }
  // The sender writes the report after the sweep: a path it cannot write ends the run now.
  if (const auto exit_code =
          agree_on_output_paths(comm, kProgram, kSenderRank, {{"--json", options.json_path}})) {
    return *exit_code;
  }
  const auto timeout = std::chrono::duration_cast<std::chrono::nanoseconds>(
      std::chrono::duration<double>(options.timeout_seconds));
  const bool with_copies = std::find(options.scenarios.begin(), options.scenarios.end(),
                                     Scenario::copies) != options.scenarios.end();

  // The backend and each rank's GPU, chosen before any pinned memory exists.
  std::optional<halo::GpuBinding> binding;
  if (const auto exit_code = run_agreed_setup(comm, kProgram, [&] {
        report.backend = choose_backend(options.backend_name);
        if (!report.backend.emulated()) binding = halo::bind_gpu(comm, options.gpu);
      })) {
    return *exit_code;
  }
  const notify::Backend backend = report.backend.backend;
  const std::size_t max_bytes = options.sizes.back();

  std::unique_ptr<SenderSide> sender;
  std::unique_ptr<MemoryAccessor> accessor;
  std::unique_ptr<CopyTraffic> copies;
  std::optional<notify::MappedAllocation> receive;
  if (const auto exit_code = run_agreed_setup(comm, kProgram, [&] {
        if (rank == kReceiverRank) {
          receive.emplace(backend, max_bytes);
          return;
        }
        if (rank != kSenderRank) return;
        accessor = report.backend.emulated()
                       ? make_host_accessor(options.accessor)
                       : make_gpu_accessor(binding->device.index, options.accessor, options.forms);
        if (with_copies) {
          copies = report.backend.emulated()
                       ? make_host_copy_traffic(options.copy_bytes)
                       : make_gpu_copy_traffic(binding->device.index, options.copy_bytes);
        }
        sender = std::make_unique<SenderSide>(backend, timeout, max_bytes, options.p2ab_gap_bytes);
        sender->accessor = accessor.get();
        sender->copies = copies.get();
        g_sender_control = &sender->control;
      })) {
    return *exit_code;
  }
  report.machine = collect_machine_info(comm, binding ? &*binding : nullptr);
  report.machine.run.tool = kProgram;
  if (rank == kSenderRank) {
    report.accessor_description = accessor->describe();
    report.gpu = accessor->gpu_facts();
    for (const AccessForm form : options.forms) {
      (form == AccessForm::stream ? report.stream_shape : report.stacked_shape) =
          accessor->shape(form);
    }
    if (copies) report.copies_description = copies->describe();
    print_heading(std::cout, report);
  }

  RoundSettings settings;
  settings.comm = comm;
  settings.timeout = timeout;
  settings.warmup = options.warmup;
  settings.iterations = options.iterations;
  settings.stop_poll_ns = options.stop_poll_ns;
  std::uint64_t epoch = 0;
  bool all_intact = true;
  for (const std::size_t bytes : options.sizes) {
    for (const CaseKey& key : cases_of_size(bytes, options.scenarios, options.forms)) {
      try {
        if (rank == kReceiverRank) {
          run_receiver_case(settings, *receive, key, epoch);
          continue;
        }
        CaseResult result = run_sender_case(settings, *sender, key, epoch);
        set_ratios(result, report.cases);
        all_intact = all_intact && result.check.passed();
        print_row(std::cout, result);
        report.cases.push_back(std::move(result));
      } catch (const std::exception& error) {
        std::string where(to_string(key.scenario));
        if (key.access) where.append(" ").append(to_string(*key.access));
        abort_run(rank, where + ", " + std::to_string(key.bytes) + " bytes: " + error.what());
      }
    }
  }
  if (rank != kSenderRank) return 0;

  print_footer(std::cout, report);
  if (!all_intact) {
    std::fprintf(stderr, "[rank 0] interference: a checked buffer arrived wrong (see the data "
                         "column)\n");
  }
  if (!options.json_path.empty() &&
      !write_json_output(options.json_path, make_report_json(report), kProgram)) {
    return 1;
  }
  return all_intact ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  const int exit_code =
      bench::run_mpi_program(argc, argv, kProgram, run_interference, stop_sender_kernel);
  g_sender_control = nullptr;
  return exit_code;
}
