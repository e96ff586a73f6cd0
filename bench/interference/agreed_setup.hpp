// Set-up steps every rank runs before the next collective (choosing the backend and the GPU,
// allocating). A rank that fails must not leave the other waiting, so the ranks agree on the
// outcome: when one failed, both stop, and the lowest failing rank prints its message.
// (halo_bench's run_agreed_setup does the same under its own name.)
#pragma once

#include <mpi.h>

#include <functional>
#include <optional>

namespace haloflag::bench::interference {

// Empty when `step` succeeded on every rank; otherwise the exit status for all ranks
// (kUsageExitCode for UsageError, 1 otherwise), after "[rank R] interference: <message>".
std::optional<int> run_agreed_setup(MPI_Comm comm, const std::function<void()>& step);

}  // namespace haloflag::bench::interference
