// The resident kernel of a stencil example on a GPU: one cooperative launch whose grid is
// checked for co-residency first (a grid barrier with a block that is not resident never
// returns), on its own stream between two events. Plain C++, so that an example's C++ sources
// may hold one; defined in GPU builds only (cooperative_grid.cu, CUDA or HIP).
#pragma once

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>

namespace haloflag::examples {

class CooperativeGrid {
 public:
  // `kernels`: every form of the kernel that launch() may be given; the grid is sized for the one
  // that fits fewest blocks. `blocks` 0: default_resident_blocks (resident_grid_size.hpp) for
  // `cells`, the most cells one sweep of a step updates, within what the occupancy API says the
  // GPU holds at once, divided among the `sharers` ranks whose grids share it (under MPS).
  // Throws std::runtime_error where the GPU has no cooperative launch, or where the grid cannot
  // be resident at once (naming what fits, and --resident-blocks). The caller checks `threads`.
  CooperativeGrid(std::initializer_list<const void*> kernels, int threads, int blocks,
                  int sharers, std::int64_t cells);
  ~CooperativeGrid();  // waits for the launch
  CooperativeGrid(const CooperativeGrid&) = delete;
  CooperativeGrid& operator=(const CooperativeGrid&) = delete;

  // Launches `kernel` (one of the constructor's) over the grid, and returns at once. `arguments`
  // as cudaLaunchCooperativeKernel takes them: read before this returns.
  void launch(const void* kernel, void** arguments);
  // Waits for the launch; its seconds on the GPU's events.
  double wait();
  // "cooperative grid: 1056 blocks x 256 threads on GPU 0".
  std::string describe() const;

  int blocks() const { return blocks_; }
  int threads() const { return threads_; }
  int device() const { return device_; }
  int per_sm() const { return per_sm_; }  // resident blocks per multiprocessor
  int sharers() const { return sharers_; }

 private:
  struct Handles;  // the stream and events (gpu_handles.hpp)
  int threads_;
  int sms_ = 0;
  int sharers_;
  int device_ = 0;
  int per_sm_ = 0;
  int blocks_ = 0;
  std::unique_ptr<Handles> handles_;
};

}  // namespace haloflag::examples
