#include "deadline_collectives.hpp"

#include <thread>

#include "haloflag/halo/errors.hpp"
#include "mpi_error_text.hpp"

namespace haloflag::halo::detail {

void check_node_step(int status, const std::string& what) {
  if (status != MPI_SUCCESS) {
    throw ExchangeError(ErrorKind::mpi, "node transport: " + what + " failed: " + mpi_error_text(status));
  }
}

void wait_with_deadline(MPI_Request& request, std::chrono::nanoseconds timeout,
                        const std::string& what) {
  const auto start = std::chrono::steady_clock::now();
  for (;;) {
    int done = 0;
    check_node_step(MPI_Test(&request, &done, MPI_STATUS_IGNORE), what);
    if (done) return;
    if (std::chrono::steady_clock::now() - start > timeout) {
      throw ExchangeError(ErrorKind::peer, "node transport: " + what + " did not complete within the timeout (" +
                          std::to_string(std::chrono::duration<double>(timeout).count()) +
                          " s): a rank of this node did not reach it");
    }
    std::this_thread::yield();
  }
}

void barrier_with_deadline(MPI_Comm comm, std::chrono::nanoseconds timeout,
                           const std::string& what) {
  MPI_Request request = MPI_REQUEST_NULL;
  check_node_step(MPI_Ibarrier(comm, &request), what);
  wait_with_deadline(request, timeout, what);
}

}  // namespace haloflag::halo::detail
