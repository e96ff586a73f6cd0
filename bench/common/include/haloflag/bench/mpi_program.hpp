// The frame the MPI command-line programs share (halo_bench, interference, haloflag_jacobi3d):
// options parsed on every rank with only rank 0 speaking, a failure that ends every rank with
// MPI_Abort instead of leaving the others waiting, and the JSON files they write.
#pragma once

#include <mpi.h>

#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "haloflag/bench/cli_declarations.hpp"

namespace haloflag::bench {

// Every rank runs `parse` (which fills the program's options from `app`); only rank 0 speaks.
// Empty on success, else the exit status: 0 after --help, kUsageExitCode for a bad option.
std::optional<int> parse_on_every_rank(CLI::App& app, const std::string& program, int rank,
                                       const std::function<void()>& parse);

// "[rank N] program: what" on stderr, then MPI_Abort: no rank is left waiting for this one.
[[noreturn]] void abort_run(const std::string& program, int rank, const std::string& what);

// MPI_Init_thread at `thread_level` (MPI_THREAD_MULTIPLE for programs whose Exchanges have a
// progress thread), run(argc, argv), MPI_Finalize, and run's exit status. An exception out of
// `run` aborts every rank (abort_run), after `before_abort` when one is given.
int run_mpi_program(int argc, char** argv, const std::string& program,
                    const std::function<int(int, char**)>& run,
                    const std::function<void()>& before_abort = {},
                    int thread_level = MPI_THREAD_SINGLE);

// Writes `json` to `path` and says "wrote PATH" (then `note`, when given) on stdout. False,
// after "[rank 0] program: PATH: cannot write the JSON file" on stderr, when it cannot.
bool write_json_output(const std::string& path, const nlohmann::json& json,
                       const std::string& program, const std::string& note = {});

}  // namespace haloflag::bench
