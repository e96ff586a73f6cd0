// The common frame of the MPI calibration tools: MPI set-up, argument errors printed once, and
// failures that cannot be recovered turned into MPI_Abort so that no rank is left waiting.
#pragma once

#include <CLI/CLI.hpp>
#include <mpi.h>

#include <cstdio>
#include <exception>
#include <functional>
#include <stdexcept>

namespace haloflag::model::calibration {

// Runs `body(rank)` after MPI_Init and parsing `app`. std::invalid_argument (bad options: every
// rank throws the same before communicating) prints once and exits 1; anything else aborts.
inline int run_mpi_tool(CLI::App& app, int argc, char** argv, const char* tool,
                        const std::function<void(int rank)>& body) {
  MPI_Init(&argc, &argv);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    const int code = rank == 0 ? app.exit(error) : error.get_exit_code();
    MPI_Finalize();
    return code;
  }
  try {
    body(rank);
  } catch (const std::invalid_argument& error) {
    if (rank == 0) std::fprintf(stderr, "%s: error: %s\n", tool, error.what());
    MPI_Finalize();
    return 1;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "%s: rank %d: error: %s\n", tool, rank, error.what());
    MPI_Abort(MPI_COMM_WORLD, 1);
    return 1;
  }
  MPI_Finalize();
  return 0;
}

}  // namespace haloflag::model::calibration
