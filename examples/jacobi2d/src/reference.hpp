// The single-GPU reference (the host's on the host backend), as the peer runs it: the whole grid
// on this rank's device, rows 1 .. ny-2 updated and the wrap-around rows copied after each
// iteration, the norm read back at every check. Every rank runs it and keeps its own rows, and
// then checks a variant's result against it: the cells bit for bit, the norms to a relative
// 1e-6 (the sums of squares are added in another order).
#pragma once

#include <mpi.h>

#include <string>
#include <vector>

#include "problem.hpp"
#include "run_settings.hpp"

namespace jacobi2d {

struct Reference {
  std::vector<double> rows;   // this rank's rows after the run, nx cells each
  std::vector<double> norms;  // every check's norm
  double seconds = 0.0;       // the run, on this rank's device
};

Reference run_reference(const Problem& problem, int rank, const RunSettings& settings,
                        int iterations);

struct CheckResult {
  bool identical = false;
  std::string message;  // "all N cells identical, ..." or the count and the first difference
};

// Collective over `comm`; every rank gets the same verdict.
CheckResult check_against_reference(MPI_Comm comm, const Problem& problem,
                                    const std::vector<double>& rows,
                                    const std::vector<double>& norms, const Reference& reference);

}  // namespace jacobi2d
