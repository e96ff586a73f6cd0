// A build without a GPU backend: asking for GPU work is an error that says so.
#include <stdexcept>

#include "gpu_jacobi.hpp"

namespace jacobi3d {

void load_gpu_kernels() {
  throw std::runtime_error("this build of haloflag_jacobi3d has no GPU backend (HALOFLAG_GPU=none)");
}

std::unique_ptr<OwnedSweep> make_gpu_owned_sweep(int) {
  throw std::runtime_error("this build of haloflag_jacobi3d has no GPU backend (HALOFLAG_GPU=none)");
}

std::unique_ptr<ResidentKernel> make_gpu_resident_kernel(const RunSettings&) {
  throw std::runtime_error("this build of haloflag_jacobi3d has no GPU backend (HALOFLAG_GPU=none)");
}

}  // namespace jacobi3d
