// Collecting one string from every rank on a root rank (binding lines, verification messages).
#pragma once

#include <mpi.h>

#include <string>
#include <vector>

namespace haloflag::bench {

// Collective over `comm`. On `root`: every rank's text, index = rank; elsewhere: empty.
std::vector<std::string> gather_strings(MPI_Comm comm, const std::string& text, int root = 0);

}  // namespace haloflag::bench
