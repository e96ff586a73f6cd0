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

GpuRoom gpu_room() { no_gpu_backend(); }

template <class Real>
std::unique_ptr<OwnedSweep<Real>> GpuSide<Real>::owned_sweep(int) {
  no_gpu_backend();
}

template <class Real>
std::unique_ptr<OverlapSweep<Real>> GpuSide<Real>::overlap_sweep(int) {
  no_gpu_backend();
}

template <class Real>
std::unique_ptr<ResidentKernel<Real>> GpuSide<Real>::resident_kernel(const RunSettings&,
                                                                     std::int64_t) {
  no_gpu_backend();
}

template struct GpuSide<float>;
template struct GpuSide<double>;

}  // namespace jacobi3d
