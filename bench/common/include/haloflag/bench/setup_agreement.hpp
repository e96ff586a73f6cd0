// Set-up steps that every rank runs before the first collective (reading the config and the
// parameter file, choosing the backend). A rank that fails must not leave the others waiting in
// the next collective, so the ranks agree on the outcome: when any failed, all stop, and only
// the lowest failing rank prints its message (the usual case is every rank failing alike).
#pragma once

#include <mpi.h>

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace haloflag::bench {

// Runs `step` on every rank of `comm`. Empty when all succeeded; otherwise the exit status all
// ranks should end with (kUsageExitCode for UsageError, 1 for anything else), after the lowest
// failing rank has printed "[rank R] <tool>: <message>" to stderr. Shared by the benchmarks
// and the Jacobi3D example, each naming itself as `tool`.
std::optional<int> run_agreed_setup(MPI_Comm comm, std::string_view tool,
                                    const std::function<void()>& step);

// A file a tool will write at its end, and the option that named it.
struct OutputPath {
  std::string option;  // "--json"
  std::string path;    // empty: no file asked for
};

// Rank `writer` (the one that writes the files) checks each of `paths` with output_path_problem
// before anything is measured; every rank learns the verdict through run_agreed_setup, so all
// stop together with kUsageExitCode instead of losing a run's results at its end.
std::optional<int> agree_on_output_paths(MPI_Comm comm, std::string_view tool, int writer,
                                         const std::vector<OutputPath>& paths);

}  // namespace haloflag::bench
