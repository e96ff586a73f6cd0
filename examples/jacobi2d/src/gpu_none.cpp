// A build without a GPU backend: asking for GPU work is an error that says so.
#include <stdexcept>

#include "gpu_jacobi2d.hpp"

namespace jacobi2d {

namespace {
[[noreturn]] void no_gpu_backend() {
  throw std::runtime_error("this build of haloflag_jacobi2d has no GPU backend (HALOFLAG_GPU=none)");
}
}  // namespace

void load_gpu_kernels() { no_gpu_backend(); }

template <class Real>
std::unique_ptr<RowSweeps<Real>> GpuSide<Real>::row_sweeps(int) {
  no_gpu_backend();
}

template <class Real>
std::unique_ptr<ResidentKernel<Real>> GpuSide<Real>::resident_kernel(int, int, int,
                                                                     std::int64_t) {
  no_gpu_backend();
}

template struct GpuSide<float>;
template struct GpuSide<double>;

}  // namespace jacobi2d
