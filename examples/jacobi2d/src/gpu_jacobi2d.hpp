// The GPU side of the example (CUDA or HIP, gpu_jacobi2d.cu), behind plain C++ declarations. In
// a build without a GPU backend they throw (gpu_none.cpp).
#pragma once

#include <cstdint>
#include <memory>

#include "resident_launch.hpp"
#include "row_sweeps.hpp"

namespace jacobi2d {

// Loads the example's kernels now. CUDA loads a kernel lazily at its first launch, which may wait
// for every running kernel, and the stream variant's resident exchange kernels stay on the GPU
// between exchanges: so they are loaded before any Exchange starts its kernels.
void load_gpu_kernels();

// The GPU side's parts for fields of Real, float or double (each file that defines the members
// instantiates the whole for both).
template <class Real>
struct GpuSide {
  // The lanes as two GPU streams, `threads` per block.
  static std::unique_ptr<RowSweeps<Real>> row_sweeps(int threads);

  // The resident kernel as a cooperative launch. `blocks` 0: sized by the rank's `cells`
  // (haloflag/examples/resident_grid_size.hpp) within what the occupancy API says fits on the GPU
  // at once, divided among the `sharers` ranks bound to it. Throws when the grid cannot be
  // resident at once, naming what fits.
  static std::unique_ptr<ResidentKernel<Real>> resident_kernel(int threads, int blocks,
                                                               int sharers, std::int64_t cells);
};

}  // namespace jacobi2d
