// Comparing a distributed result with the single-rank reference, bit for bit: every rank sends
// its owned cells to rank 0, which computes the reference in the problem's precision and names
// the first cell that differs. Float values travel widened to double, which is exact, so equal
// doubles mean equal floats.
#pragma once

#include <mpi.h>

#include <string>

#include "haloflag/halo/host_field.hpp"
#include "problem.hpp"

namespace jacobi3d {

struct CheckResult {
  bool identical = false;
  std::string message;  // "all N cells identical" or the first differing cell and the count
};

// Collective over `comm` (ranks numbered as in problem.geometry). `field`: this rank's local
// field after `iterations` steps. Every rank gets rank 0's verdict.
CheckResult check_against_reference(MPI_Comm comm, const Problem& problem,
                                    const haloflag::halo::HostField& field, int iterations);

}  // namespace jacobi3d
