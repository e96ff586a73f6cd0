#include "haloflag/halo/deadline_barrier.hpp"

#include "deadline_collectives.hpp"

namespace haloflag::halo {

void barrier_with_deadline(MPI_Comm comm, std::chrono::nanoseconds timeout,
                           const std::string& what) {
  detail::barrier_with_deadline(comm, timeout, what);
}

}  // namespace haloflag::halo
