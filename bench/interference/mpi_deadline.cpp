#include "mpi_deadline.hpp"

#include <stdexcept>
#include <thread>

namespace haloflag::bench::interference {

void wait_with_deadline(MPI_Request& request, std::chrono::nanoseconds timeout,
                        const std::string& what) {
  const auto give_up = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    int done = 0;
    check_mpi(MPI_Test(&request, &done, MPI_STATUS_IGNORE), ("MPI_Test (" + what + ")").c_str());
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
