// Runs the resident kernel (resident_iterations.hpp) asynchronously: a cooperative GPU grid,
// or on the host backend a team of CPU threads. launch() returns at once; the caller then
// drives the exchange on the host (start()/finish() per iteration) and calls wait(). Real is the
// field's element type (float or double).
#pragma once

#include <memory>
#include <string>

#include "resident_launch.hpp"
#include "run_settings.hpp"

namespace jacobi3d {

// How a resident run ended: its duration in seconds (GPU events on a GPU, the steady clock on
// the host) and whether every iteration completed (false: a wait failed).
struct ResidentOutcome {
  double seconds = 0.0;
  bool completed = false;
};

template <class Real>
class ResidentKernel {
 public:
  virtual ~ResidentKernel() = default;
  // Throws (before anything runs) when the grid cannot be resident at once.
  virtual void launch(const ResidentLaunch<Real>& launch) = 0;
  // Waits for the run to end.
  virtual ResidentOutcome wait() = 0;
  // "cooperative grid: 132 blocks x 256 threads" or "host team: 2 threads".
  virtual std::string describe() const = 0;
};

// Defined for float and double.
template <class Real>
std::unique_ptr<ResidentKernel<Real>> make_host_resident_kernel(int threads);

}  // namespace jacobi3d
