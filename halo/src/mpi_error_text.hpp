// Internal: the MPI library's own words for an error code, for the engine's error messages.
#pragma once

#include <string>

namespace haloflag::halo::detail {

// MPI_Error_string of `status` ("MPI_ERR_TRUNCATE: message truncated" or the like).
std::string mpi_error_text(int status);

}  // namespace haloflag::halo::detail
