// The host's side of the norms the kernels compute (stream and resident variants): it waits
// for each check's partial sum in the NormSlots and sums it over the ranks, so that every rank
// knows every check's norm while the kernels go on. The sum over ranks is a non-blocking
// MPI_Iallreduce polled beside `progress`, so a rank that also drives an exchange's MPI peers
// keeps driving them while it waits (a blocking reduction could hold back a send a peer needs
// before it can reach the same check).
#pragma once

#include <mpi.h>

#include <chrono>
#include <cstdint>
#include <functional>

#include "haloflag/notify/backend.hpp"
#include "haloflag/notify/mapped_allocation.hpp"
#include "norm_slots.hpp"

namespace jacobi2d {

class NormFollower {
 public:
  NormFollower(haloflag::notify::Backend backend, int max_checks, MPI_Comm comm,
               std::chrono::nanoseconds timeout);
  // For the kernels (device addresses).
  NormSlots slots() const;
  // Before a run, while no kernel publishes: no check published yet.
  void reset();
  // Waits (at most the timeout) until this rank has published check k, then sums the check's
  // partials over the ranks and returns the L2 norm. `progress` is called while waiting.
  // Throws std::runtime_error naming the rank, the check and its iteration.
  double reduce(int check, int iteration, const std::function<void()>& progress);

 private:
  haloflag::notify::MappedAllocation words_;
  int max_checks_;
  MPI_Comm comm_;
  std::chrono::nanoseconds timeout_;
};

}  // namespace jacobi2d
