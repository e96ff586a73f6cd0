// Waiting for MPI requests with a deadline (docs/design.md, rule 5): MPI_Test in a loop that yields,
// so a peer that never answers ends the run with a message instead of a hang.
#pragma once

#include <mpi.h>

#include <chrono>
#include <string>

#include "mpi_call.hpp"

namespace haloflag::bench::interference {

// Throws model::calibration::MpiError naming the call when `status` is not MPI_SUCCESS.
using model::calibration::check_mpi;

// Throws std::runtime_error naming `what` when `request` is not complete within `timeout`, or
// when MPI reports an error.
void wait_with_deadline(MPI_Request& request, std::chrono::nanoseconds timeout,
                        const std::string& what);

}  // namespace haloflag::bench::interference
