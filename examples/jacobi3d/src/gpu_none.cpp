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

template <class Real>
std::unique_ptr<OwnedSweep<Real>> make_gpu_owned_sweep(int) {
  no_gpu_backend();
}

template <class Real>
std::unique_ptr<OverlapSweep<Real>> make_gpu_overlap_sweep(int) {
  no_gpu_backend();
}

template <class Real>
std::unique_ptr<ResidentKernel<Real>> make_gpu_resident_kernel(const RunSettings&, std::int64_t) {
  no_gpu_backend();
}

template std::unique_ptr<OwnedSweep<float>> make_gpu_owned_sweep<float>(int);
template std::unique_ptr<OwnedSweep<double>> make_gpu_owned_sweep<double>(int);
template std::unique_ptr<OverlapSweep<float>> make_gpu_overlap_sweep<float>(int);
template std::unique_ptr<OverlapSweep<double>> make_gpu_overlap_sweep<double>(int);
template std::unique_ptr<ResidentKernel<float>> make_gpu_resident_kernel<float>(
    const RunSettings&, std::int64_t);
template std::unique_ptr<ResidentKernel<double>> make_gpu_resident_kernel<double>(
    const RunSettings&, std::int64_t);

}  // namespace jacobi3d
