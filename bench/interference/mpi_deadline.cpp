#include "mpi_deadline.hpp"

#include <stdexcept>
#include <thread>

namespace haloflag::bench::interference {

void check_mpi(int status, const std::string& call) {
  if (status == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING] = {};
  int length = 0;
  MPI_Error_string(status, text, &length);
  throw std::runtime_error(call + " failed: " + std::string(text, static_cast<std::size_t>(length)));
}

void wait_with_deadline(MPI_Request& request, std::chrono::nanoseconds timeout,
                        const std::string& what) {
  const auto give_up = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    int done = 0;
    check_mpi(MPI_Test(&request, &done, MPI_STATUS_IGNORE), "MPI_Test (" + what + ")");
    if (done != 0) return;
    if (std::chrono::steady_clock::now() > give_up) {
      throw std::runtime_error("waited " +
                               std::to_string(std::chrono::duration<double>(timeout).count()) +
                               " s for " + what + " (--timeout)");
    }
    std::this_thread::yield();
  }
}

}  // namespace haloflag::bench::interference
