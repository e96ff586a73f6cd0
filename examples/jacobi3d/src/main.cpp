// haloflag_jacobi3d: a 3D Jacobi stencil decomposed over MPI ranks, with its halo exchange done
// by haloflag in three ways: conventional (a kernel launch and a comb_fused exchange per
// iteration), resident (one kernel for all iterations, the exchange embedded in it) and stream
// (a kernel launch and a stream-ordered resident exchange per iteration, one host wait per run).
// Run under mpiexec; rank 0 prints the table and writes the JSON report. See
// examples/jacobi3d/README.md.
//
// Exit status: 0 on success; 1 when --check found a difference or the set-up failed (fields too
// large for the memory there among it); 2 for bad options or a problem that cannot be
// decomposed. A failure while iterating (a missed deadline, an MPI error) is printed by the rank
// that saw it and ends every rank with MPI_Abort.
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
#include <vector>

#include "gpu_jacobi.hpp"
#include "haloflag/bench/backend_choice.hpp"
#include "haloflag/bench/machine_info.hpp"
#include "haloflag/bench/mpi_program.hpp"
#include "haloflag/bench/setup_agreement.hpp"
#include "haloflag/bench/usage_error.hpp"
#include "haloflag/halo/gpu_binding.hpp"
#include "haloflag/halo/index3.hpp"
#include "haloflag/halo/memory_check.hpp"
#include "jacobi_options.hpp"
#include "jacobi_report.hpp"
#include "jacobi_variant.hpp"
#include "reference_check.hpp"

namespace {

using namespace jacobi3d;
namespace hb = haloflag::bench;

constexpr const char* kTool = "haloflag_jacobi3d";

struct World {
  int rank = 0;
  int ranks = 1;
};

World world() {
  World w;
  MPI_Comm_rank(MPI_COMM_WORLD, &w.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &w.ranks);
  return w;
}

double slowest(double seconds) {
  MPI_Allreduce(MPI_IN_PLACE, &seconds, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return seconds;
}

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

int run_jacobi(int argc, char** argv) {
  const World me = world();
  const MPI_Comm comm = MPI_COMM_WORLD;

  CLI::App app{"haloflag_jacobi3d: 7- or 27-point Jacobi on a periodic 3D grid over MPI ranks; "
               "time per iteration of the conventional loop, the resident kernel and the "
               "stream-ordered loop."};
  JacobiOptions options;
  if (const auto exit_code = hb::parse_on_every_rank(app, kTool, me.rank, [&] {
        options = parse_jacobi_options(app, argc, argv);
      })) {
    return *exit_code;
  }
  // Rank 0 writes the report at the end: a path it cannot write ends the run now.
  if (const auto exit_code =
          hb::agree_on_output_paths(comm, kTool, 0, {{"--json", options.json_path}})) {
    return *exit_code;
  }

  std::optional<Problem> problem;
  hb::BackendChoice backend;
  if (const auto exit_code = hb::run_agreed_setup(comm, kTool, [&] {
        backend = hb::choose_backend(options.backend_name);
        try {
          problem.emplace(make_problem(options.stencil, options.size_kind, options.size, me.ranks,
                                       options.precision));
        } catch (const ProblemError& error) {
          throw hb::UsageError(error.what());
        }
      })) {
    return *exit_code;
  }

  std::optional<haloflag::halo::GpuBinding> binding;
  if (const auto exit_code = hb::run_agreed_setup(comm, kTool, [&] {
        if (!backend.emulated()) {
          binding = haloflag::halo::bind_gpu(comm, options.gpu);
          load_gpu_kernels();
        }
      })) {
    return *exit_code;
  }
  // After binding, so that a GPU's free memory is that of the GPU this rank allocates on.
  if (const auto exit_code = hb::run_agreed_setup(comm, kTool, [&] {
        require_field_memory(options, *problem, me.rank, backend.backend);
      })) {
    return *exit_code;
  }

  JacobiReport report{options,
                      {argv, argv + argc},
                      backend,
                      hb::collect_machine_info(comm, binding ? &*binding : nullptr),
                      *problem,
                      0,
                      0,
                      {}};
  report.machine.run.tool = kTool;
  const auto neighbours = problem->geometry.neighbours(0);
  report.messages_per_rank = static_cast<int>(neighbours.size());
  for (const auto& n : neighbours) report.halo_bytes_per_rank += n.bytes;
  if (me.rank == 0) print_heading(std::cout, report);

  RunSettings settings;
  settings.backend = backend.backend;
  settings.transport = haloflag::halo::parse_transport(options.transport);
  settings.timeout = std::chrono::duration_cast<std::chrono::nanoseconds>(
      std::chrono::duration<double>(options.timeout_seconds));
  settings.gpu_threads = options.gpu_threads;
  settings.resident_blocks = options.resident_blocks;
  settings.host_team_threads = options.host_team_threads;
  settings.progress = haloflag::halo::parse_progress(options.progress);

  std::vector<std::unique_ptr<JacobiVariant>> variants;
  const StreamVariantsGoFirst release_order(variants);
  for (const VariantKind kind : options.variants) {
    if (const auto exit_code = hb::run_agreed_setup(comm, kTool, [&] {
          variants.push_back(make_variant(kind, *problem, comm, settings));
        })) {
      return *exit_code;
    }
    VariantResult result;
    result.kind = kind;
    result.launch = variants.back()->launch_description();
    report.variants.push_back(result);
  }

  bool all_identical = true;
  try {
    if (options.check) {
      for (std::size_t v = 0; v < variants.size(); ++v) {
        variants[v]->reset();
        variants[v]->run(options.iterations);
        report.variants[v].check = check_against_reference(comm, *problem, variants[v]->current(),
                                                           options.iterations);
        all_identical = all_identical && report.variants[v].check->identical;
      }
    }
    for (auto& variant : variants) {
      variant->reset();
      for (int w = 0; w < options.warmup; ++w) variant->run(options.iterations);
    }
    // Variants alternate run by run, so a drift of the machine touches both alike.
    for (int repeat = 0; repeat < options.repeats; ++repeat) {
      for (std::size_t v = 0; v < variants.size(); ++v) {
        MPI_Barrier(comm);
        const double seconds = variants[v]->run(options.iterations);
        report.variants[v].per_iteration_us.push_back(slowest(seconds) * 1e6 / options.iterations);
      }
    }
  } catch (const std::exception& error) {
    hb::abort_run(kTool, me.rank, error.what());
  }
  for (VariantResult& result : report.variants) {
    result.summary = haloflag::model::calibration::summarize(result.per_iteration_us);
  }

  if (me.rank == 0) {
    print_table(std::cout, report);
    if (!options.json_path.empty() &&
        !hb::write_json_output(options.json_path, report_json(report), kTool)) {
      return 1;
    }
  }
  if (!all_identical) {
    if (me.rank == 0) std::cerr << kTool << ": --check: the distributed result differs from the reference\n";
    return 1;
  }
  return 0;
}

}  // namespace

// The stream variant's progress thread calls MPI beside the main thread (its Exchange refuses
// a lower level, saying so).
int main(int argc, char** argv) {
  return haloflag::bench::run_mpi_program(argc, argv, kTool, run_jacobi, {}, MPI_THREAD_MULTIPLE);
}
