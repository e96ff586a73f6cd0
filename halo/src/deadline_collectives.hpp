// Internal: the node transport's set-up collectives, each with a deadline. A rank of the node
// that never reaches a step (it failed before, or died) ends it with an error naming the step,
// instead of a hang.
#pragma once

#include <mpi.h>

#include <chrono>
#include <string>
#include <vector>

namespace haloflag::halo::detail {

// Throws ExchangeError "node transport: <what> failed: <MPI's words>" unless MPI_SUCCESS.
void check_node_step(int status, const std::string& what);

// Tests `request` until it completes; throws ExchangeError naming `what` after `timeout`.
void wait_with_deadline(MPI_Request& request, std::chrono::nanoseconds timeout,
                        const std::string& what);

// MPI_Iallgather of one trivially copyable value per rank, with the deadline.
template <class T>
std::vector<T> all_gather(const T& mine, MPI_Comm comm, std::chrono::nanoseconds timeout,
                          const std::string& what) {
  int size = 0;
  MPI_Comm_size(comm, &size);
  std::vector<T> all(static_cast<std::size_t>(size));
  MPI_Request request = MPI_REQUEST_NULL;
  check_node_step(MPI_Iallgather(&mine, sizeof(T), MPI_BYTE, all.data(), sizeof(T), MPI_BYTE,
                                 comm, &request),
                  what);
  wait_with_deadline(request, timeout, what);
  return all;
}

// MPI_Ibarrier with the deadline.
void barrier_with_deadline(MPI_Comm comm, std::chrono::nanoseconds timeout,
                           const std::string& what);

}  // namespace haloflag::halo::detail
