// Checking MPI return codes (the tools set MPI_ERRORS_RETURN so that a failure names its call).
#pragma once

#include <mpi.h>

#include <string>

#include "haloflag/error.hpp"

namespace haloflag::model::calibration {

class MpiError : public Error {
 public:
  explicit MpiError(const std::string& what) : Error(ErrorKind::mpi, what) {}
};

inline void check_mpi(int code, const char* call) {
  if (code == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(code, text, &length);
  throw MpiError(std::string(call) + " failed: " + std::string(text, static_cast<std::size_t>(length)));
}

}  // namespace haloflag::model::calibration
