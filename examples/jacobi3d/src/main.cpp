// haloflag_jacobi3d: a 3D Jacobi stencil decomposed over MPI ranks, with its halo exchange done
// by haloflag in four ways: conventional (a kernel launch and a comb_fused exchange per
// iteration), conventional_overlap (the boundary layer first, then a comb_graph exchange while
// the interior updates), resident (one kernel for all iterations, the exchange embedded in it)
// and stream (a kernel launch and a stream-ordered resident exchange per iteration, one host
// wait per run). Every ratio is against the faster conventional variant, and each variant's
// update is also timed alone against the device's copy rate. Run under mpiexec; rank 0 prints
// the table and writes the JSON report. See examples/jacobi3d/README.md.
//
// Exit status: 0 on success; 1 when --check found a difference or the set-up failed (fields too
// large for the memory there among it); 2 for bad options or a problem that cannot be
// decomposed. A failure while iterating (a missed deadline, an MPI error) is printed by the rank
// that saw it and ends every rank with MPI_Abort.
#include <CLI/CLI.hpp>
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "gpu_jacobi.hpp"
#include "haloflag/bench/copy_rate.hpp"
#include "haloflag/bench/mpi_program.hpp"
#include "haloflag/bench/setup_agreement.hpp"
#include "haloflag/bench/usage_error.hpp"
#include "haloflag/examples/run_end.hpp"
#include "haloflag/examples/run_facts.hpp"
#include "haloflag/examples/run_start.hpp"
#include "haloflag/examples/stream_variants_go_first.hpp"
#include "haloflag/halo/exchange_options.hpp"
#include "haloflag/halo/index3.hpp"
#include "haloflag/halo/memory_check.hpp"
#include "jacobi_options.hpp"
#include "jacobi_report.hpp"
#include "jacobi_variant.hpp"
#include "reference_check.hpp"

namespace {

using namespace jacobi3d;
namespace hb = haloflag::bench;
namespace hx = haloflag::examples;

constexpr const char* kTool = "haloflag_jacobi3d";

// Refuses a problem whose fields do not fit this rank's device memory (the host's on the host
// backend) before any variant allocates them, naming the size asked for and the bytes needed:
// otherwise the first allocation ends the run in std::bad_alloc or a failed cudaMalloc. Each
// variant keeps two buffers of the rank's part, ghosts included; the exchanges' own buffers are
// checked when they are set up.
void require_field_memory(const JacobiOptions& options, const Problem& problem, int rank,
                          haloflag::notify::Backend backend) {
  namespace hh = haloflag::halo;
  const hh::Index3 extent = problem.geometry.subdomain(rank).field_extent;
  const std::int64_t buffers = 2 * static_cast<std::int64_t>(options.variants.size());
  const std::int64_t cells = hh::checked_bytes(hh::checked_bytes(extent[0], extent[1]), extent[2]);
  const std::int64_t bytes =
      hh::checked_bytes(hh::checked_bytes(cells, element_bytes(problem.precision)), buffers);
  const std::string size_option =
      std::string(options.size_kind == SizeKind::global ? "--size " : "--local ") +
      hh::format_triple(options.size);
  hh::require_device_memory(backend, bytes,
                            size_option + ": the fields of rank " + std::to_string(rank) + " (" +
                                std::to_string(buffers) + " buffers of " +
                                hh::format_triple(extent, 'x') + " cells of " +
                                std::string(to_string(problem.precision)) +
                                ", ghosts included)");
}

// The device's copy rate for a copy of one field buffer (ghosts included: the working set of one
// update), measured on every rank at once; the slowest rank's (every rank's buffer has the same
// size). Before any variant exists, so that no kernel of theirs shares the GPU with the copy and
// the probe's buffers are freed before the fields are allocated.
hb::CopyRate field_copy_rate(const Problem& problem, haloflag::notify::Backend backend,
                             MPI_Comm comm, int rank) {
  const haloflag::halo::Index3 extent = problem.geometry.subdomain(rank).field_extent;
  const std::int64_t bytes =
      extent[0] * extent[1] * extent[2] * element_bytes(problem.precision);
  hb::CopyRate rate = hb::measure_copy_rate(backend, bytes);
  rate.seconds = hx::slowest(rate.seconds, comm);
  rate.bytes_per_second = 2.0 * static_cast<double>(bytes) / std::max(rate.seconds, 1e-9);
  return rate;
}

// A resident run right after a stream run would find the stream variant's resident exchange
// kernels still on the GPU: they leave once idle for ExchangeOptions::idle_exit, and the
// resident variant's cooperative grid, which fills the GPU at large sizes, starts only once they
// have (a cooperative launch waits until its whole grid fits). So a resident run that follows a
// stream run first lets that window pass, outside its timing.
class GpuHandover {
 public:
  explicit GpuHandover(bool gpu) : gpu_(gpu) {}
  void before(VariantKind kind) {
    if (gpu_ && kind == VariantKind::resident && stream_ended_) {
      std::this_thread::sleep_until(*stream_ended_ + kWindow);
      stream_ended_.reset();
    }
  }
  void after(VariantKind kind) {
    if (kind == VariantKind::stream) stream_ended_ = std::chrono::steady_clock::now();
  }

 private:
  // The stream variant keeps the default idle_exit; twice that, and a little more, covers the
  // kernels' own reaction.
  static constexpr auto kWindow =
      2 * haloflag::halo::kDefaultIdleExit + std::chrono::milliseconds(1);
  bool gpu_;
  std::optional<std::chrono::steady_clock::time_point> stream_ended_;
};

int run_jacobi(int argc, char** argv) {
  const MPI_Comm comm = MPI_COMM_WORLD;

  CLI::App app{"haloflag_jacobi3d: 7- or 27-point Jacobi on a periodic 3D grid over MPI ranks; "
               "time per iteration of the conventional loop, the overlapped conventional loop, "
               "the resident kernel and the stream-ordered loop, each against the faster "
               "conventional loop, and each update alone against the device's copy rate."};
  JacobiOptions options;
  std::optional<Problem> problem;
  hx::RunStart start;
  if (const auto exit_code = hx::start_run(
          app, comm, kTool, options, [&] { return parse_jacobi_options(app, argc, argv); },
          [&] {
            problem.emplace(make_problem(options.stencil, options.size_kind, options.size,
                                         start.ranks, options.precision));
          },
          load_gpu_kernels, start)) {
    return *exit_code;
  }
  const int rank = start.rank;
  // After binding, so that a GPU's free memory is that of the GPU this rank allocates on. The
  // sweeps' 32-bit index limit is checked after the memory, which most sizes past it exceed too.
  if (const auto exit_code = hb::run_agreed_setup(comm, kTool, [&] {
        require_field_memory(options, *problem, rank, start.backend.backend);
        try {
          refuse_fields_past_32_bits(*problem, options.size_kind, options.size);
        } catch (const ProblemError& error) {
          throw hb::UsageError(error.what());
        }
      })) {
    return *exit_code;
  }

  std::optional<hb::CopyRate> copy_rate;
  if (options.update_rate) {
    if (const auto exit_code = hb::run_agreed_setup(comm, kTool, [&] {
          copy_rate = field_copy_rate(*problem, start.backend.backend, comm, rank);
        })) {
      return *exit_code;
    }
  }

  JacobiReport report{options, hx::collect_run_facts(comm, kTool, argc, argv, start), *problem,
                      0, 0, {}, copy_rate};
  const auto neighbours = problem->geometry.neighbours(0);
  report.messages_per_rank = static_cast<int>(neighbours.size());
  for (const auto& n : neighbours) report.halo_bytes_per_rank += n.bytes;
  if (rank == 0) print_heading(std::cout, report);

  RunSettings settings;
  hx::set_variant_settings(settings, options, start);
  settings.node_lines_up_to_bytes = options.node_lines_up_to_bytes;
  settings.interior_by_counter = options.interior_by_counter;
  if (options.conventional_strategy != "auto") {
    settings.conventional_strategy = haloflag::halo::parse_strategy(options.conventional_strategy);
  }

  std::vector<std::unique_ptr<JacobiVariant>> variants;
  const hx::StreamVariantsGoFirst release_order(variants);
  if (const auto exit_code = hx::set_up_variants(
          comm, kTool, options.variants, variants,
          [&](VariantKind kind) { return make_variant(kind, *problem, comm, settings); },
          [&](const JacobiVariant& variant) {
            VariantResult result;
            result.kind = variant.kind();
            result.launch = variant.launch_description();
            report.variants.push_back(result);
          })) {
    return *exit_code;
  }

  bool all_identical = true;
  GpuHandover handover(!start.backend.emulated());
  // Runs variant v's run() (or its update alone) in turn with the others.
  const auto run_variant = [&](std::size_t v, bool updates_only) {
    const VariantKind kind = variants[v]->kind();
    handover.before(kind);
    MPI_Barrier(comm);
    const double seconds = updates_only ? variants[v]->run_updates_only(options.iterations)
                                        : variants[v]->run(options.iterations);
    handover.after(kind);
    return seconds;
  };
  try {
    if (options.check) {
      for (std::size_t v = 0; v < variants.size(); ++v) {
        variants[v]->reset();
        run_variant(v, false);
        report.variants[v].check = check_against_reference(comm, *problem, variants[v]->current(),
                                                           options.iterations);
        all_identical = all_identical && report.variants[v].check->identical;
      }
    }
    for (std::size_t v = 0; v < variants.size(); ++v) {
      variants[v]->reset();
      for (int w = 0; w < options.warmup; ++w) run_variant(v, false);
    }
    // Variants alternate run by run, so a drift of the machine touches all alike.
    for (int repeat = 0; repeat < options.repeats; ++repeat) {
      for (std::size_t v = 0; v < variants.size(); ++v) {
        const double seconds = run_variant(v, false);
        report.variants[v].per_iteration_us.push_back(hx::slowest(seconds) * 1e6 /
                                                      options.iterations);
      }
    }
    // The update alone, after the timed runs (it leaves fields that are no longer the Jacobi
    // solution), alternating in the same way.
    if (options.update_rate) {
      for (VariantResult& result : report.variants) result.update.emplace();
      for (int repeat = 0; repeat < options.repeats; ++repeat) {
        for (std::size_t v = 0; v < variants.size(); ++v) {
          const double seconds = run_variant(v, true);
          report.variants[v].update->per_iteration_us.push_back(hx::slowest(seconds) * 1e6 /
                                                                options.iterations);
        }
      }
    }
  } catch (const std::exception& error) {
    hb::abort_run(kTool, rank, error.what());
  }
  const haloflag::halo::Index3 owned = problem->geometry.subdomain(rank).extent;
  const std::int64_t update_bytes =
      2 * owned[0] * owned[1] * owned[2] * element_bytes(problem->precision);
  for (VariantResult& result : report.variants) {
    result.summary = haloflag::model::calibration::summarize(result.per_iteration_us);
    if (result.update) {
      UpdateRate& update = *result.update;
      update.summary = haloflag::model::calibration::summarize(update.per_iteration_us);
      update.bytes_per_iteration = update_bytes;
      if (update.summary.median > 0.0) {
        update.bytes_per_second =
            static_cast<double>(update_bytes) / (update.summary.median * 1e-6);
      }
      if (report.copy_rate && report.copy_rate->bytes_per_second > 0.0) {
        update.fraction_of_copy_rate = update.bytes_per_second / report.copy_rate->bytes_per_second;
      }
    }
  }

  return hx::finish_run(
      kTool, rank, [&] { print_table(std::cout, report); }, options.json_path,
      [&] { return report_json(report); }, all_identical,
      "--check: the distributed result differs from the reference");
}

}  // namespace

// The stream variant's progress thread calls MPI beside the main thread (its Exchange refuses
// a lower level, saying so).
int main(int argc, char** argv) {
  return haloflag::bench::run_mpi_program(argc, argv, kTool, run_jacobi, {}, MPI_THREAD_MULTIPLE);
}
