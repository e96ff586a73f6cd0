// What the stencil examples' MPI tests share about running a variant: whether MPI runs at the
// thread level the stream variant's progress thread needs, and a run whose failure ends the whole
// job at once (the other ranks would otherwise wait for their deadline). Header only: only the
// tests include it.
#pragma once

#include <mpi.h>

#include <cstdio>
#include <exception>
#include <string>

namespace haloflag::examples {

// CTest starts the tests with HALOFLAG_TEST_MPI_THREAD=multiple, so that MPI is initialised at
// MPI_THREAD_MULTIPLE; run by hand without it, a test uses the run's own thread instead.
inline bool mpi_thread_multiple() {
  int level = MPI_THREAD_SINGLE;
  MPI_Query_thread(&level);
  return level >= MPI_THREAD_MULTIPLE;
}

// Why a case that needs a progress thread is skipped without MPI_THREAD_MULTIPLE.
inline constexpr const char* kNoThreadMultiple =
    "MPI is not initialised with MPI_THREAD_MULTIPLE (HALOFLAG_TEST_MPI_THREAD=multiple)";

// Runs `run`; an exception prints "[rank R] <what>: <error>" and ends every rank with MPI_Abort.
template <class Run>
void run_or_abort(const std::string& what, Run&& run) {
  try {
    run();
  } catch (const std::exception& error) {
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    std::fprintf(stderr, "[rank %d] %s: %s\n", rank, what.c_str(), error.what());
    std::fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
}

}  // namespace haloflag::examples
