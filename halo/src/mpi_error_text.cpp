#include "mpi_error_text.hpp"

#include <mpi.h>

#include <cstddef>

namespace haloflag::halo::detail {

std::string mpi_error_text(int status) {
  char text[MPI_MAX_ERROR_STRING] = {};
  int length = 0;
  if (MPI_Error_string(status, text, &length) != MPI_SUCCESS) {
    return "MPI error code " + std::to_string(status);
  }
  return std::string(text, static_cast<std::size_t>(length));
}

}  // namespace haloflag::halo::detail
