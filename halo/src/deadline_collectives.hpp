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

// MPI_Ialltoall(v) of trivially copyable values: outgoing[q] goes to rank q, and the result's
// [q] is what rank q sent here, with the deadline.
template <class T>
std::vector<std::vector<T>> all_to_all(const std::vector<std::vector<T>>& outgoing, MPI_Comm comm,
                                       std::chrono::nanoseconds timeout, const std::string& what) {
  const std::size_t size = outgoing.size();
  std::vector<int> send_counts(size);
  std::vector<int> send_displs(size);
  std::vector<T> send_flat;
  for (std::size_t q = 0; q < size; ++q) {
    send_displs[q] = static_cast<int>(send_flat.size() * sizeof(T));
    send_counts[q] = static_cast<int>(outgoing[q].size() * sizeof(T));
    send_flat.insert(send_flat.end(), outgoing[q].begin(), outgoing[q].end());
  }
  std::vector<int> recv_counts(size);
  MPI_Request request = MPI_REQUEST_NULL;
  check_node_step(MPI_Ialltoall(send_counts.data(), 1, MPI_INT, recv_counts.data(), 1, MPI_INT,
                                comm, &request),
                  what);
  wait_with_deadline(request, timeout, what);
  std::vector<int> recv_displs(size);
  int total = 0;
  for (std::size_t q = 0; q < size; ++q) {
    recv_displs[q] = total;
    total += recv_counts[q];
  }
  std::vector<T> recv_flat(static_cast<std::size_t>(total) / sizeof(T));
  check_node_step(MPI_Ialltoallv(send_flat.data(), send_counts.data(), send_displs.data(),
                                 MPI_BYTE, recv_flat.data(), recv_counts.data(),
                                 recv_displs.data(), MPI_BYTE, comm, &request),
                  what);
  wait_with_deadline(request, timeout, what);
  std::vector<std::vector<T>> incoming(size);
  for (std::size_t q = 0; q < size; ++q) {
    const auto first = recv_flat.begin() + recv_displs[q] / static_cast<int>(sizeof(T));
    incoming[q].assign(first, first + recv_counts[q] / static_cast<int>(sizeof(T)));
  }
  return incoming;
}

// MPI_Ibarrier with the deadline.
void barrier_with_deadline(MPI_Comm comm, std::chrono::nanoseconds timeout,
                           const std::string& what);

}  // namespace haloflag::halo::detail
