// Runs the resident kernel (resident_steps.hpp) asynchronously: a cooperative GPU grid, or on
// the host backend a team of CPU threads. launch() returns at once; the caller drives the
// exchange's host side and follows the norms, then calls wait().
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "resident_launch.hpp"

namespace jacobi2d {

// How a run ended: its seconds (GPU events on a GPU, the steady clock on the host) and whether
// every iteration completed (false: a wait failed).
struct ResidentOutcome {
  double seconds = 0.0;
  bool completed = false;
};

template <class Real>
class ResidentKernel {
 public:
  virtual ~ResidentKernel() = default;
  virtual void launch(const ResidentLaunch<Real>& launch) = 0;
  virtual ResidentOutcome wait() = 0;
  // "cooperative grid: 1056 blocks x 256 threads (occupancy: 8 per SM)" or "host team: 2 threads".
  virtual std::string describe() const = 0;
};

// Defined for float and double.
template <class Real>
std::unique_ptr<ResidentKernel<Real>> make_host_resident_kernel(int threads);
// `blocks` 0: as many blocks of `threads` as the occupancy API says fit on the GPU at once,
// divided among the `sharers` ranks bound to it, and no more than the rank's `cells` fill at one
// per thread. Throws when the grid cannot be resident at once, naming what fits.
template <class Real>
std::unique_ptr<ResidentKernel<Real>> make_gpu_resident_kernel(int threads, int blocks,
                                                               int sharers, std::int64_t cells);

}  // namespace jacobi2d
