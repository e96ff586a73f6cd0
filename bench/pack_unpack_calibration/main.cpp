// haloflag_calibrate_pack_unpack: the time to pack and to unpack one halo message of each size
// on the GPU, with the engine's stream-approach block programs (one block per message), written
// as the pack/unpack table the model reads (the paper's Table 3) plus a raw file with every
// run; and the time of a cube's whole halo in one fused launch (the bulk strategies' kernels),
// fitted as latency plus bytes over bandwidth. Run under mpiexec with one rank per GPU: the
// ranks measure one message at a time, each on its own GPU, the halo sets all at once, and
// rank 0 pools and writes; beside the halo sets, the GB/s they reach next to the copy engine's
// within the GPU and to a peer GPU (copy_rates.hpp). --refit fits an earlier run's halo sets
// again from its raw file.
// Options and output: docs/model.md.
//
// Exit status: 0 when the table was written and read back; 1 for bad values (printed once) or a
// failure (a wrong pack or unpack, a kernel fault: every rank is aborted); CLI11's codes for
// options it rejects itself.
#include <mpi.h>

#include <chrono>
#include <cstdio>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "calibration_files.hpp"
#include "calibration_report.hpp"
#include "copy_rates.hpp"
#include "halo_set_measurement.hpp"
#include "halo_set_refit.hpp"
#include "haloflag/bench/gather_strings.hpp"
#include "haloflag/halo/gpu_binding.hpp"
#include "haloflag/model/params_file.hpp"
#include "message_shapes.hpp"
#include "mpi_call.hpp"
#include "pack_unpack_options.hpp"
#include "rates_report.hpp"
#include "run_info.hpp"
#include "shape_measurement.hpp"
#include "size_table.hpp"
#include "tool_main.hpp"

namespace {

using namespace haloflag;
using namespace haloflag::bench;

constexpr const char* kTool = "haloflag_calibrate_pack_unpack";

struct BackendChoice {
  notify::Backend backend = notify::Backend::host;
  std::string reason;
};

// Every rank decides alike, so a refusal (std::invalid_argument) is printed once.
BackendChoice choose_backend(const PackUnpackOptions& options) {
  BackendChoice choice;
  std::string why;
  if (options.backend == "auto") {
    choice.backend = notify::best_available_backend();
    if (choice.backend != notify::Backend::host) {
      choice.reason = "auto: best present";
    } else if (!notify::backend_compiled(notify::Backend::cuda) &&
               !notify::backend_compiled(notify::Backend::hip)) {
      choice.reason = "auto: no GPU backend compiled into this build";
    } else {
      notify::gpu_device_count(&why);
      choice.reason = "auto: no usable GPU (" + why + ")";
    }
  } else {
    choice.backend = notify::parse_backend(options.backend);
    choice.reason = "requested";
    if (!notify::backend_compiled(choice.backend)) {
      throw std::invalid_argument("--backend " + options.backend +
                                  ": not compiled into this build (configure with "
                                  "-DHALOFLAG_GPU=" + options.backend + ")");
    }
    if (choice.backend != notify::Backend::host && notify::gpu_device_count(&why) == 0) {
      throw std::invalid_argument("--backend " + options.backend + ": no usable GPU (" + why + ")");
    }
  }
  const int threads = options.message_threads;
  if (choice.backend != notify::Backend::host && (threads < 32 || threads % 32 != 0)) {
    throw std::invalid_argument("--message-threads " + std::to_string(threads) +
                                ": a GPU block needs a multiple of 32 threads in [32, 1024]");
  }
  return choice;
}

// Rank 0 writes the files; every rank learns whether it can before anything is measured.
void check_output_folders(MPI_Comm comm, const PackUnpackOptions& options, int rank) {
  std::string problem = rank == 0 ? output_folder_problem(options) : std::string();
  int length = static_cast<int>(problem.size());
  model::calibration::check_mpi(MPI_Bcast(&length, 1, MPI_INT, 0, comm), "MPI_Bcast");
  problem.resize(static_cast<std::size_t>(length));
  model::calibration::check_mpi(MPI_Bcast(problem.data(), length, MPI_CHAR, 0, comm), "MPI_Bcast");
  if (!problem.empty()) throw std::invalid_argument(problem);
}

void print_heading(const CalibrationRun& run, const std::vector<ShapeSource>& sources) {
  std::size_t packs = 0;
  std::size_t unpacks = 0;
  for (const ShapeSource& source : sources) {
    packs += source.packs.size();
    unpacks += source.unpacks.size();
  }
  const PackUnpackOptions& o = run.options;
  std::printf("%s: pack and unpack time of one halo message per size\n", kTool);
  std::printf("backend   %s (%s)%s\n", std::string(notify::to_string(run.backend)).c_str(),
              run.backend_reason.c_str(),
              run.backend == notify::Backend::host
                  ? "; host backend: CPU threads emulate the GPU, not GPU results"
                  : "");
  for (const std::string& gpu : run.gpus) std::printf("gpu       %s\n", gpu.c_str());
  std::printf("ranks     %d, measured one at a time; MPI %s\n", run.run.ranks,
              run.run.mpi_library.c_str());
  std::printf("messages  %zu pack and %zu unpack shapes of %zu sizes from %zu sources\n", packs,
              unpacks, sizes_of(sources).size(), sources.size());
  std::printf("timing    %d warm-up + %d timed runs per shape, one message per launch, one block "
              "of %d %s\n",
              o.warmup, o.iterations,
              run.backend == notify::Backend::host ? 1 : o.message_threads,
              run.backend == notify::Backend::host ? "CPU thread" : "threads");
  if (o.halo_cubes.empty()) {
    std::printf("halo sets none (--halo-cubes '')\n\n");
  } else {
    std::string sides;
    for (const std::int64_t side : o.halo_cubes) {
      sides += (sides.empty() ? "" : ",") + std::to_string(side);
    }
    std::printf("halo sets cubes %s: 26 messages in one fused launch, buffer pinned and in device "
                "memory, %d warm-up + %d timed runs each\n\n",
                sides.c_str(), o.warmup, o.iterations);
  }
  std::fflush(stdout);
}

// --refit: rank 0 fits an earlier run's halo sets again and writes its table; nothing is timed.
void refit(int argc, char** argv, const PackUnpackOptions& options, int rank) {
  if (rank != 0) return;
  const std::string problem = output_folder_problem(options);
  if (!problem.empty()) throw std::invalid_argument(problem);
  const std::string command = joined(std::vector<std::string>(argv, argv + argc), " ");
  const RefitTable refitted = refit_halo_sets(options.refit_path, command);
  std::printf("%s: the halo sets of %s fitted again (nothing measured)\n", kTool,
              options.refit_path.c_str());
  print_halo_sets(stdout, refitted.sets, refitted.fits);
  model::write_pack_unpack_table_file(options.out_path, refitted.table);
  const model::PackUnpackTableFile written = model::read_pack_unpack_table_file(options.out_path);
  if (!(written == refitted.table)) {
    throw std::runtime_error(options.out_path + ": the table read back differs from the one written");
  }
  std::printf("wrote %s (%zu sizes, the fused fits above)\n", options.out_path.c_str(),
              written.table.points().size());
}

void calibrate(int argc, char** argv, const CLI::App& app, PackUnpackOptions& options, int rank) {
  if (!options.refit_path.empty()) return refit(argc, argv, options, rank);
  const MPI_Comm comm = MPI_COMM_WORLD;
  complete_pack_unpack_options(app, options);
  check_output_folders(comm, options, rank);
  CalibrationRun run;
  run.options = options;
  run.command_line.assign(argv, argv + argc);
  const BackendChoice backend = choose_backend(options);
  run.backend = backend.backend;
  run.backend_reason = backend.reason;
  std::vector<ShapeSource> sources = collect_shapes(options.configs, options.cubes, options.vars);
  keep_sizes(sources, options.sizes);
  for (const ShapeSource& source : sources) run.sources.push_back(source.name);
  const std::vector<CubeHalo> halo_cubes = halo_set_cubes(options.halo_cubes, options.vars);

  std::optional<halo::GpuBinding> binding;
  if (run.backend != notify::Backend::host) binding = halo::bind_gpu(comm, options.gpu);
  run.run = model::calibration::collect_run_info(comm, kTool);
  if (binding) {
    run.gpu_sharers = binding->sharers;
    run.gpus = gather_strings(comm, binding->describe());
    run.gpu_names = gather_strings(comm, binding->device.name);
  }
  if (rank == 0) print_heading(run, sources);

  MeasureSettings settings;
  settings.backend = run.backend;
  settings.launch.message_threads = options.message_threads;
  settings.launch.host_threads = options.host_threads;
  settings.timeout = std::chrono::duration_cast<std::chrono::nanoseconds>(
      std::chrono::duration<double>(options.timeout_seconds));
  settings.warmup = options.warmup;
  settings.iterations = options.iterations;

  // One message: one rank at a time, so that no GPU shares the host's memory bus with another's
  // packing. Whole halos: every rank at once, as the ranks of an exchange pack and unpack them.
  std::vector<TimedShape> shapes;
  for (int turn = 0; turn < run.run.ranks; ++turn) {
    if (turn == rank) shapes = measure_shapes(sources, settings, rank);
    model::calibration::check_mpi(MPI_Barrier(comm), "MPI_Barrier");
  }
  std::vector<TimedHaloSet> halo_sets = measure_halo_sets(halo_cubes, settings, comm, rank);
  CopyRates copies = measure_copy_rates(halo_cubes, settings, comm);
  gather_samples(comm, shapes, options.iterations);
  gather_halo_set_samples(comm, halo_sets, options.iterations);
  gather_copy_samples(comm, copies, options.iterations);
  if (rank != 0) return;

  const std::vector<SizeRow> rows = pool_by_size(shapes);
  const double finest_us = finest_block_time_us(shapes);
  const TableWithNotes table = make_table(rows, options.table_time, finest_us);
  print_size_table(stdout, rows, options.table_time);
  for (const std::string& note : table.notes) std::printf("note: %s\n", note.c_str());
  const std::vector<FusedFit> fits = fit_halo_sets(halo_sets, run.gpu_sharers);
  print_halo_sets(stdout, halo_sets, fits);
  print_rates(stdout, halo_sets, copies);

  const model::PackUnpackTableFile file = make_table_file(run, table, finest_us, fits);
  const std::string table_text = model::pack_unpack_table_to_json(file);
  model::calibration::write_text(options.out_path, table_text);
  // Read back with the model's own reader: what a merge will get must be all of it.
  const model::PackUnpackTableFile written = model::read_pack_unpack_table_file(options.out_path);
  if (written.table.points().size() != file.table.points().size()) {
    throw std::runtime_error(options.out_path + ": the table read back has " +
                             std::to_string(written.table.points().size()) + " sizes, not " +
                             std::to_string(file.table.points().size()));
  }
  model::calibration::write_text(options.raw_path, raw_json(run, shapes, rows, table_text,
                                                           finest_us, halo_sets, fits, copies));
  std::printf("wrote %s (%zu sizes) and %s\n", options.out_path.c_str(),
              file.table.points().size(), options.raw_path.c_str());
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Pack and unpack time of one halo message per size with the stream-approach block "
               "programs (one block per message); writes the model's pack/unpack table and the "
               "raw runs. Run with one MPI rank per GPU."};
  PackUnpackOptions options;
  add_pack_unpack_options(app, options);
  return haloflag::model::calibration::run_mpi_tool(
      app, argc, argv, kTool, [&](int rank) { calibrate(argc, argv, app, options, rank); });
}
