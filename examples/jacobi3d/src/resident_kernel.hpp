// Runs the resident kernel (resident_iterations.hpp) asynchronously: a cooperative GPU grid,
// or on the host backend a team of CPU threads. launch() returns at once; the caller then
// drives the exchange on the host (start()/finish() per iteration) and calls wait().
#pragma once

#include <memory>
#include <string>

#include "resident_launch.hpp"
#include "run_settings.hpp"

namespace jacobi3d {

class ResidentKernel {
 public:
  virtual ~ResidentKernel() = default;
  // Throws (before anything runs) when the grid cannot be resident at once.
  virtual void launch(const ResidentLaunch& launch) = 0;
  // Waits for the run to end; returns its duration in seconds (GPU events on a GPU, the steady
  // clock on the host) and whether every iteration completed (false: a wait failed).
  struct Outcome {
    double seconds = 0.0;
    bool completed = false;
  };
  virtual Outcome wait() = 0;
  // "cooperative grid: 132 blocks x 256 threads" or "host team: 2 threads".
  virtual std::string describe() const = 0;
};

std::unique_ptr<ResidentKernel> make_host_resident_kernel(int threads);

}  // namespace jacobi3d
