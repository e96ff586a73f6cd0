#include "norm_follower.hpp"

#include <cmath>
#include <cstring>
#include <stdexcept>
#include <string>

#include "haloflag/notify/system_atomics.hpp"
#include "run_settings.hpp"

namespace jacobi2d {

NormFollower::NormFollower(haloflag::notify::Backend backend, int max_checks, MPI_Comm comm,
                           std::chrono::nanoseconds timeout)
    : words_(backend, static_cast<std::size_t>(max_checks + 1) * sizeof(std::uint64_t)),
      max_checks_(max_checks), comm_(comm), timeout_(timeout) {}

NormSlots NormFollower::slots() const {
  auto* words = static_cast<std::uint64_t*>(words_.device());
  return {words, words + max_checks_};
}

void NormFollower::reset() {
  haloflag::notify::store_release_system(static_cast<std::uint64_t*>(words_.host()) + max_checks_,
                                         0);
}

double NormFollower::reduce(int check, int iteration, const std::function<void()>& progress) {
  const auto* words = static_cast<const std::uint64_t*>(words_.host());
  const auto deadline = std::chrono::steady_clock::now() + timeout_;
  const auto late = [&](const std::string& what) {
    return std::runtime_error("rank " + std::to_string(rank_of(comm_)) + ": the norm of check " +
                              std::to_string(check) + " (iteration " + std::to_string(iteration) +
                              ") " + what + " within the timeout of " +
                              std::to_string(std::chrono::duration<double>(timeout_).count()) +
                              " s");
  };
  while (haloflag::notify::load_acquire_system(words + max_checks_) <=
         static_cast<std::uint64_t>(check)) {
    if (std::chrono::steady_clock::now() > deadline) {
      throw late("was not published by this rank's kernels (they stopped or are stalled)");
    }
    progress();
  }
  double partial = 0.0;
  const std::uint64_t bits = words[check];
  std::memcpy(&partial, &bits, sizeof partial);
  double total = 0.0;
  MPI_Request request = MPI_REQUEST_NULL;
  MPI_Iallreduce(&partial, &total, 1, MPI_DOUBLE, MPI_SUM, comm_, &request);
  int done = 0;
  while (true) {
    MPI_Test(&request, &done, MPI_STATUS_IGNORE);
    if (done) break;
    if (std::chrono::steady_clock::now() > deadline) {
      throw late("was not summed over the ranks (a rank did not reach it)");
    }
    progress();
  }
  return std::sqrt(total);
}

}  // namespace jacobi2d
