// A stencil example's resident kernel, run asynchronously: a cooperative GPU grid
// (cooperative_grid.hpp), or on the host backend a team of CPU threads (host_resident_kernel.hpp).
// launch() returns at once; the caller drives the exchange's host side meanwhile, then calls
// wait() (resident_run.hpp does both). `Launch` is the example's ResidentLaunch<Real>: the
// kernel's arguments as plain data.
#pragma once

#include <string>
#include <type_traits>

namespace haloflag::examples {

// How a run ended: its seconds (GPU events on a GPU, the steady clock on the host) and whether
// every iteration completed (false: a wait failed).
struct ResidentOutcome {
  double seconds = 0.0;
  bool completed = false;
};

template <class Launch>
class ResidentKernel {
  // A GPU kernel takes its arguments by value, as plain bytes.
  static_assert(std::is_trivially_copyable_v<Launch>);

 public:
  virtual ~ResidentKernel() = default;
  // Throws (before anything runs) when the grid cannot be resident at once.
  virtual void launch(const Launch& launch) = 0;
  // Waits for the run to end.
  virtual ResidentOutcome wait() = 0;
  // "cooperative grid: 132 blocks x 256 threads ..." or "host team: 2 threads".
  virtual std::string describe() const = 0;
  // The grid's blocks (the host team's members, each a block of one thread).
  virtual int blocks() const = 0;
};

}  // namespace haloflag::examples
