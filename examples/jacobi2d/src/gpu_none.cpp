// A build without a GPU backend: asking for GPU work is an error that says so.
#include <stdexcept>

#include "gpu_jacobi2d.hpp"
#include "resident_kernel.hpp"
#include "row_sweeps.hpp"

namespace jacobi2d {

namespace {
[[noreturn]] void no_gpu_backend() {
  throw std::runtime_error("this build of haloflag_jacobi2d has no GPU backend (HALOFLAG_GPU=none)");
}
}  // namespace

void load_gpu_kernels() { no_gpu_backend(); }

template <class Real>
std::unique_ptr<RowSweeps<Real>> make_gpu_row_sweeps(int) {
  no_gpu_backend();
}

template <class Real>
std::unique_ptr<ResidentKernel<Real>> make_gpu_resident_kernel(int, int, int, std::int64_t) {
  no_gpu_backend();
}

template std::unique_ptr<RowSweeps<float>> make_gpu_row_sweeps<float>(int);
template std::unique_ptr<RowSweeps<double>> make_gpu_row_sweeps<double>(int);
template std::unique_ptr<ResidentKernel<float>> make_gpu_resident_kernel<float>(int, int, int,
                                                                          std::int64_t);
template std::unique_ptr<ResidentKernel<double>> make_gpu_resident_kernel<double>(int, int, int,
                                                                            std::int64_t);

}  // namespace jacobi2d
