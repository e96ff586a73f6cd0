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

// This process's rank in a communicator and the number of ranks there.
struct RankAndSize {
  int rank = 0;
  int ranks = 0;
};

inline RankAndSize rank_and_size(MPI_Comm comm) {
  RankAndSize place;
  check_mpi(MPI_Comm_rank(comm, &place.rank), "MPI_Comm_rank");
  check_mpi(MPI_Comm_size(comm, &place.ranks), "MPI_Comm_size");
  return place;
}

}  // namespace haloflag::model::calibration
