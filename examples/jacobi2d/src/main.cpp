// haloflag_jacobi2d: the 2-D Jacobi of NVIDIA's multi-GPU programming models, its rows split over
// MPI ranks, in three variants: the best conventional loop (conventional_overlap), haloflag's
// stream-ordered exchange (stream) and the whole exchange from the example's own kernel
// (resident). Every rank first runs the single-device reference and every variant is checked
// against it. Run under mpiexec; rank 0 prints the table (or, with -csv, the peer's CSV lines)
// and writes the JSON report. See examples/jacobi2d/README.md.
//
// Exit status: 0 on success; 1 when a variant differs from the reference or the set-up failed;
// 2 for bad options or a problem that cannot be decomposed. A failure while iterating (a missed
// deadline, an MPI error) is printed by the rank that saw it and ends every rank with MPI_Abort.
#include <CLI/CLI.hpp>
#include <mpi.h>

#include <chrono>
#include <cstdint>
#include <exception>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "gpu_jacobi2d.hpp"
#include "haloflag/bench/copy_rate.hpp"
#include "haloflag/bench/mpi_program.hpp"
#include "haloflag/bench/setup_agreement.hpp"
#include "haloflag/examples/run_end.hpp"
#include "haloflag/examples/run_facts.hpp"
#include "haloflag/examples/run_start.hpp"
#include "haloflag/examples/stream_variants_go_first.hpp"
#include "haloflag/halo/exchange_options.hpp"
#include "haloflag/halo/memory_check.hpp"
#include "options.hpp"
#include "reference.hpp"
#include "report.hpp"
#include "variant.hpp"

namespace {

using namespace jacobi2d;
namespace hb = haloflag::bench;
namespace hh = haloflag::halo;
namespace hx = haloflag::examples;

constexpr const char* kTool = "haloflag_jacobi2d";

// Refuses a problem whose fields do not fit this rank's device memory before anything is
// allocated: each variant keeps two fields of three planes (problem.hpp), and the reference two
// copies of the whole grid.
void require_field_memory(const Options& options, const Problem& problem, int rank,
                          haloflag::notify::Backend backend) {
  const std::int64_t bytes_per_cell = element_bytes(problem.precision);
  const std::int64_t field = hh::checked_bytes(3 * (problem.rows(rank) + 2), problem.nx);
  const std::int64_t grid = hh::checked_bytes(problem.ny, problem.nx);
  const std::int64_t cells =
      2 * grid + hh::checked_bytes(2 * static_cast<std::int64_t>(options.variants.size()), field);
  hh::require_device_memory(backend, hh::checked_bytes(cells, bytes_per_cell),
                            "-nx " + std::to_string(problem.nx) + " -ny " +
                                std::to_string(problem.ny) + ": the fields of rank " +
                                std::to_string(rank) + " and the single-device reference");
}

UpdateRate update_rate(double seconds, const Report& report, int rank) {
  UpdateRate rate;
  rate.us_per_iteration = seconds * 1e6 / report.options.niter;
  rate.bytes_per_iteration = 2.0 * static_cast<double>(report.problem.rows(rank)) *
                             static_cast<double>(report.problem.nx - 2) *
                             element_bytes(report.problem.precision);
  rate.bytes_per_second = rate.bytes_per_iteration / (rate.us_per_iteration * 1e-6);
  rate.fraction_of_copy_rate = rate.bytes_per_second / report.copy_rate.bytes_per_second;
  return rate;
}

// The stream variant's resident exchange kernels stay on the GPU until idle for
// ExchangeOptions::idle_exit, and the resident variant's cooperative grid, which may fill the GPU,
// starts only once they have left (a cooperative launch waits until its whole grid fits). So on
// a GPU, where a stream variant exists, a resident run first lets that window pass, untimed.
void hand_over_gpu(const std::vector<std::unique_ptr<Variant>>& variants, const Variant& next,
                   bool gpu) {
  if (!gpu || next.kind() != VariantKind::resident) return;
  for (const auto& variant : variants) {
    if (variant->kind() == VariantKind::stream) {
      std::this_thread::sleep_for(2 * hh::kDefaultIdleExit + std::chrono::milliseconds(1));
      return;
    }
  }
}

int run_jacobi(int argc, char** argv) {
  const MPI_Comm comm = MPI_COMM_WORLD;

  CLI::App app{"haloflag_jacobi2d: the 2-D Jacobi of NVIDIA's multi-GPU programming models over "
               "MPI ranks; time per iteration of the best conventional loop, haloflag's "
               "stream-ordered exchange and the whole exchange from the example's own kernel."};
  std::vector<std::string> arguments = translate_peer_options(argc, argv);
  std::vector<char*> translated;
  for (std::string& argument : arguments) translated.push_back(argument.data());
  Options options;
  std::optional<Problem> problem;
  hx::RunStart start;
  if (const auto exit_code = hx::start_run(
          app, comm, kTool, options,
          [&] {
            return parse_options(app, static_cast<int>(translated.size()), translated.data());
          },
          [&] {
            problem.emplace(make_problem(options.nx, options.ny, start.ranks, options.precision));
          },
          load_gpu_kernels, start)) {
    return *exit_code;
  }
  const int rank = start.rank;
  Report report{options, hx::collect_run_facts(comm, kTool, argc, argv, start), *problem, {},
                0.0, {}};
  // After binding (a GPU's free memory is that of the GPU this rank allocates on), and before
  // any exchange keeps kernels on the GPU (the copy probe frees memory, which waits for them).
  if (const auto exit_code = hb::run_agreed_setup(comm, kTool, [&] {
        require_field_memory(options, *problem, rank, start.backend.backend);
        report.copy_rate = hb::measure_copy_rate(
            start.backend.backend,
            problem->rows(rank) * problem->nx * element_bytes(options.precision));
      })) {
    return *exit_code;
  }
  if (rank == 0 && !options.csv) print_heading(std::cout, report);

  RunSettings settings;
  hx::set_variant_settings(settings, options, start);
  settings.nccheck = options.nccheck;
  settings.max_iterations = options.niter;
  settings.conventional_strategy = hh::parse_strategy(options.conventional_strategy);

  std::vector<std::unique_ptr<Variant>> variants;
  const hx::StreamVariantsGoFirst release_order(variants);
  try {
    // Before the variants' exchanges exist: the reference allocates and frees device memory.
    const Reference reference = run_reference(*problem, rank, settings, options.niter);
    report.reference_seconds = hx::slowest(reference.seconds);
    if (const auto exit_code = hx::set_up_variants(
            comm, kTool, options.variants, variants,
            [&](VariantKind kind) { return make_variant(kind, *problem, comm, settings); },
            [&](const Variant& variant) {
              VariantResult result;
              result.kind = variant.kind();
              result.launch = variant.launch_description();
              report.variants.push_back(result);
            })) {
      return *exit_code;
    }
    const bool gpu = !start.backend.emulated();
    for (std::size_t v = 0; v < variants.size(); ++v) {
      variants[v]->reset();
      hand_over_gpu(variants, *variants[v], gpu);
      variants[v]->run(options.niter);
      report.variants[v].check = check_against_reference(
          comm, *problem, variants[v]->current_rows(), variants[v]->norms(), reference);
      if (!variants[v]->norms().empty()) report.variants[v].last_norm = variants[v]->norms().back();
    }
    for (std::size_t v = 0; v < variants.size(); ++v) {
      hand_over_gpu(variants, *variants[v], gpu);
      MPI_Barrier(comm);
      report.variants[v].update =
          update_rate(hx::slowest(variants[v]->run_updates_only(options.niter)), report, rank);
      variants[v]->reset();
      for (int w = 0; w < options.warmup; ++w) variants[v]->run(options.niter);
    }
    // Variants alternate run by run, so a drift of the machine touches all alike.
    for (int repeat = 0; repeat < options.repeats; ++repeat) {
      for (std::size_t v = 0; v < variants.size(); ++v) {
        hand_over_gpu(variants, *variants[v], gpu);
        MPI_Barrier(comm);
        const double seconds = hx::slowest(variants[v]->run(options.niter));
        report.variants[v].per_iteration_us.push_back(seconds * 1e6 / options.niter);
      }
    }
  } catch (const std::exception& error) {
    hb::abort_run(kTool, rank, error.what());
  }
  bool all_identical = true;
  for (VariantResult& result : report.variants) {
    result.summary = haloflag::model::calibration::summarize(result.per_iteration_us);
    all_identical = all_identical && result.check.identical;
  }
  return hx::finish_run(
      kTool, rank,
      [&] {
        if (options.csv) {
          print_csv(std::cout, report);
        } else {
          print_table(std::cout, report);
        }
      },
      options.json_path, [&] { return report_json(report); }, all_identical,
      "a variant differs from the single-device reference");
}

}  // namespace

// The stream variant's progress thread calls MPI beside the main thread.
int main(int argc, char** argv) {
  return haloflag::bench::run_mpi_program(argc, argv, kTool, run_jacobi, {}, MPI_THREAD_MULTIPLE);
}
