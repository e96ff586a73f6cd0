// The first steps of a stencil example's run: where it runs (its ranks, options, backend and GPU),
// its variants' settings, and its variants set up. The steps that can fail are agreed by every
// rank, so that a failure on one ends all of them before any collective of the run (exit status
// 2 for what the user asked wrongly, 1 for the rest: haloflag/bench/setup_agreement.hpp).
#pragma once

#include <mpi.h>

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "haloflag/bench/backend_choice.hpp"
#include "haloflag/bench/cli_declarations.hpp"
#include "haloflag/bench/setup_agreement.hpp"
#include "haloflag/examples/variant_settings.hpp"
#include "haloflag/halo/gpu_binding.hpp"
#include "haloflag/halo/progress.hpp"
#include "haloflag/halo/transport.hpp"

namespace haloflag::examples {

// Where the run runs: this process among the ranks, and its backend.
struct RunStart {
  int rank = 0;   // in the run's communicator
  int ranks = 1;
  haloflag::bench::BackendChoice backend;
  std::optional<haloflag::halo::GpuBinding> binding;  // this rank's GPU, on a GPU backend
};

namespace detail {

std::optional<int> parse_command_line(CLI::App& app, MPI_Comm comm, const std::string& tool,
                                      const std::function<void()>& parse,
                                      const std::string& json_path);

std::optional<int> set_up_backend(MPI_Comm comm, const std::string& tool,
                                  const std::string& backend_name, int gpu,
                                  const std::function<void()>& make_problem,
                                  void (*load_kernels)(), RunStart& start);

}  // namespace detail

// On every rank: start.rank and start.ranks in `comm`; `options = parse()` (from `app` and the
// command line), only rank 0 speaking; a --json path (options.json_path) that rank 0, which
// writes the report at the end, cannot write is refused. Then the backend (options.backend_name,
// --backend) is chosen and `make_problem` runs (a ProblemError is a usage error); then, on a GPU
// backend, this rank's GPU is bound (options.gpu; -1: by node-local rank) and `load_kernels`
// called, before any Exchange starts kernels that would make a lazy load wait. Empty when the
// run goes on, else its exit status.
template <class Options, class Parse>
std::optional<int> start_run(CLI::App& app, MPI_Comm comm, const std::string& tool,
                             Options& options, Parse parse,
                             const std::function<void()>& make_problem, void (*load_kernels)(),
                             RunStart& start) {
  MPI_Comm_rank(comm, &start.rank);
  MPI_Comm_size(comm, &start.ranks);
  if (const auto exit_code = detail::parse_command_line(
          app, comm, tool, [&] { options = parse(); }, options.json_path)) {
    return exit_code;
  }
  return detail::set_up_backend(comm, tool, options.backend_name, options.gpu, make_problem,
                                load_kernels, start);
}

// Sets the settings every variant shares (of an example's RunSettings), from the run's backend
// and the options both examples spell alike (--timeout, --gpu-threads, --resident-blocks,
// --node-blocks, --node-piece-bytes, --sends-update, --next-exchange, --host-threads,
// --transport, --progress).
template <class Options>
void set_variant_settings(VariantSettings& settings, const Options& options,
                          const RunStart& start) {
  settings.backend = start.backend.backend;
  settings.transport = haloflag::halo::parse_transport(options.transport);
  settings.timeout = std::chrono::duration_cast<std::chrono::nanoseconds>(
      std::chrono::duration<double>(options.timeout_seconds));
  settings.gpu_threads = options.gpu_threads;
  settings.gpu_sharers = start.binding ? start.binding->sharers : 1;
  settings.resident_blocks = options.resident_blocks;
  settings.node_blocks = options.node_blocks;
  settings.node_piece_bytes = options.node_piece_bytes;
  if (options.sends_update != "auto") settings.sends_update_cells = options.sends_update == "on";
  settings.next_exchange_told = options.next_exchange_told;
  settings.host_team_threads = options.host_team_threads;
  settings.progress = haloflag::halo::parse_progress(options.progress);
}

// Sets up the variants of `kinds` in turn, each agreed by every rank (`make(kind)` is
// collective: it builds the variant's Exchanges), and calls `added(variant)` after each. Empty
// when every one was set up, else the exit status.
template <class Variant, class Kind, class Make, class Added>
std::optional<int> set_up_variants(MPI_Comm comm, const std::string& tool,
                                   const std::vector<Kind>& kinds,
                                   std::vector<std::unique_ptr<Variant>>& variants, Make make,
                                   Added added) {
  for (const Kind kind : kinds) {
    if (const auto exit_code = haloflag::bench::run_agreed_setup(
            comm, tool, [&] { variants.push_back(make(kind)); })) {
      return exit_code;
    }
    added(*variants.back());
  }
  return std::nullopt;
}

}  // namespace haloflag::examples
