// The GPU side of the example (CUDA or HIP, gpu_jacobi.cu), behind plain C++ declarations. In a
// build without a GPU backend they throw (gpu_none.cpp).
#pragma once

#include <cstdint>
#include <memory>

#include "overlap_sweep.hpp"
#include "owned_sweep.hpp"
#include "resident_launch.hpp"
#include "run_settings.hpp"

namespace jacobi3d {

// Loads the example's kernels now. CUDA loads a kernel lazily at its first launch, which may wait
// for every running kernel, and the stream variant's resident exchange kernels never end: so
// the kernels are loaded before any Exchange starts its kernels. Loads both precisions' kernels.
void load_gpu_kernels();

// What the current GPU holds at once: its multiprocessors, and the most threads resident on each.
struct GpuRoom {
  int multiprocessors = 0;
  int threads_per_multiprocessor = 0;
  std::int64_t threads() const {
    return std::int64_t{multiprocessors} * threads_per_multiprocessor;
  }
};
GpuRoom gpu_room();

// The GPU side's parts for fields of Real, float or double (each file that defines the members
// instantiates the whole for both).
template <class Real>
struct GpuSide {
  // The update of the conventional and stream variants: one kernel launch over the owned box on
  // the sweep's own stream (run() then waits for it).
  static std::unique_ptr<OwnedSweep<Real>> owned_sweep(int threads);

  // The update of the conventional_overlap variant: the boundary layer's kernel on a stream of
  // the highest priority, the interior's on a stream of the lowest.
  static std::unique_ptr<OverlapSweep<Real>> overlap_sweep(int threads);

  // The resident kernel as a cooperative launch of settings.gpu_threads threads per block,
  // checked for co-residency. Blocks: settings.resident_blocks, or when that is 0 sized by the
  // rank's `cells` (haloflag/examples/resident_grid_size.hpp) within what the occupancy API says
  // the GPU holds at once (the fewer of the kernel's two forms) divided among the
  // settings.gpu_sharers ranks whose grids share this GPU (under MPS).
  static std::unique_ptr<ResidentKernel<Real>> resident_kernel(const RunSettings& settings,
                                                               std::int64_t cells);
};

}  // namespace jacobi3d
