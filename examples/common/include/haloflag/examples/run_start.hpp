// The first steps of a stencil example's run, each agreed by every rank, so that a failure on one
// ends all of them before any collective of the run (exit status 2 for what the user asked
// wrongly, 1 for the rest: haloflag/bench/setup_agreement.hpp).
#pragma once

#include <CLI/CLI.hpp>
#include <mpi.h>

#include <functional>
#include <optional>
#include <string>

#include "haloflag/bench/backend_choice.hpp"
#include "haloflag/halo/gpu_binding.hpp"

namespace haloflag::examples {

// Runs `parse` (which fills the program's options from `app` and the command line) on every
// rank, only rank 0 speaking; then refuses, on every rank, a --json path that rank 0, which
// writes the report at the end, cannot write. `json_path` is read after `parse`. Empty when the
// run goes on, else its exit status.
std::optional<int> parse_command_line(CLI::App& app, MPI_Comm comm, const std::string& tool,
                                      const std::function<void()>& parse,
                                      const std::string& json_path);

// Where the run's kernels run.
struct RunBackend {
  haloflag::bench::BackendChoice choice;
  std::optional<haloflag::halo::GpuBinding> binding;  // this rank's GPU, on a GPU backend
};

// Chooses the backend (`backend_name`, --backend) and runs `make_problem` (a ProblemError is a
// usage error); then, on a GPU backend, binds this rank's GPU (`gpu`; -1: by node-local rank) and
// calls `load_kernels`, before any Exchange starts kernels that would make a lazy load wait.
// Empty when every rank succeeded, else the exit status.
std::optional<int> set_up_backend(MPI_Comm comm, const std::string& tool,
                                  const std::string& backend_name, int gpu,
                                  const std::function<void()>& make_problem,
                                  void (*load_kernels)(), RunBackend& backend);

}  // namespace haloflag::examples
