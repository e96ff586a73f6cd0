// A build without a GPU backend: asking for GPU work is an error that says so.
#include <stdexcept>

#include "gpu_jacobi.hpp"

namespace jacobi3d {

namespace {
[[noreturn]] void no_gpu_backend() {
  throw std::runtime_error("this build of haloflag_jacobi3d has no GPU backend (HALOFLAG_GPU=none)");
}
}  // namespace

void load_gpu_kernels() { no_gpu_backend(); }

std::unique_ptr<OwnedSweep> make_gpu_owned_sweep(int) { no_gpu_backend(); }

std::unique_ptr<ResidentKernel> make_gpu_resident_kernel(const RunSettings&) { no_gpu_backend(); }

}  // namespace jacobi3d
