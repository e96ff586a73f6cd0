// The GPU side of the example (CUDA or HIP, gpu_jacobi2d.cu), behind plain C++ declarations. In
// a build without a GPU backend they throw (gpu_none.cpp).
#pragma once

namespace jacobi2d {

// Loads the example's kernels now. CUDA loads a kernel lazily at its first launch, which may wait
// for every running kernel, and the stream variant's resident exchange kernels stay on the GPU
// between exchanges: so they are loaded before any Exchange starts its kernels.
void load_gpu_kernels();

}  // namespace jacobi2d
