/// @file
/// A barrier with a deadline, for tools and codes that meet between exchanges: a rank that never
/// arrives (it failed, or died) ends the barrier with an error naming the step, as the
/// Exchange's own set-up collectives do, instead of a hang.
#pragma once

#include <mpi.h>

#include <chrono>
#include <string>

namespace haloflag::halo {

/// MPI_Ibarrier over `comm`, tested until it completes; throws ExchangeError naming `what` after
/// `timeout`, or when MPI fails.
void barrier_with_deadline(MPI_Comm comm, std::chrono::nanoseconds timeout,
                           const std::string& what);

}  // namespace haloflag::halo
