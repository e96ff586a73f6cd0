// The GPU side of the example, for CUDA and (through notify/gpu_runtime.hpp) HIP: the update
// kernel of the conventional and stream variants, and the resident kernel as a cooperative
// launch that is checked for co-residency first (a grid barrier with a block that is not
// resident never returns). Each kernel is compiled for float and for double fields.
#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "box_sweep.hpp"
#include "gpu_jacobi.hpp"
#include "haloflag/kernels/gpu_groups.hpp"
#include "haloflag/notify/gpu_handles.hpp"
#include "haloflag/notify/gpu_runtime.hpp"
#include "resident_iterations.hpp"

namespace jacobi3d {

namespace {

namespace hk = haloflag::kernels;

// Threads per block are at most 1024 (checked below): the compiler budgets registers for that.
constexpr int kMaxThreads = 1024;

template <class Real>
__global__ void __launch_bounds__(kMaxThreads)
    owned_sweep_kernel(StencilKind stencil, SweepFields<Real> fields, hk::Box owned) {
  sweep_box(stencil, fields, owned, static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x,
            static_cast<std::int64_t>(gridDim.x) * blockDim.x);
}

// kWholeExchange: ResidentLaunch::whole_exchange, one kernel per form (resident_iterations).
template <class Real, bool kWholeExchange>
__global__ void __launch_bounds__(kMaxThreads) resident_kernel(ResidentLaunch<Real> launch) {
  (void)resident_iterations<kWholeExchange>(hk::ThreadBlockGroup{}, hk::CooperativeGridGroup{},
                                            blockIdx.x, gridDim.x, launch);
}

// Instantiated here for both types: hipcc emits a template kernel's host stub where the kernel
// is instantiated, and load_gpu_kernels() only takes its address (the link found none).
template __global__ void owned_sweep_kernel<float>(StencilKind, SweepFields<float>, hk::Box);
template __global__ void owned_sweep_kernel<double>(StencilKind, SweepFields<double>, hk::Box);
template __global__ void resident_kernel<float, false>(ResidentLaunch<float>);
template __global__ void resident_kernel<double, false>(ResidentLaunch<double>);
template __global__ void resident_kernel<float, true>(ResidentLaunch<float>);
template __global__ void resident_kernel<double, true>(ResidentLaunch<double>);

// The resident kernel of `whole_exchange`'s form.
template <class Real>
const void* resident_kernel_of(bool whole_exchange) {
  return whole_exchange ? reinterpret_cast<const void*>(resident_kernel<Real, true>)
                        : reinterpret_cast<const void*>(resident_kernel<Real, false>);
}

void check_threads(int threads) {
  if (threads < 32 || threads > kMaxThreads || threads % 32 != 0) {
    throw std::invalid_argument("--gpu-threads must be a multiple of 32 in [32, 1024], got " +
                                std::to_string(threads));
  }
}

}  // namespace

void load_gpu_kernels() {
  for (const void* kernel : {reinterpret_cast<const void*>(owned_sweep_kernel<float>),
                             reinterpret_cast<const void*>(owned_sweep_kernel<double>),
                             resident_kernel_of<float>(false), resident_kernel_of<float>(true),
                             resident_kernel_of<double>(false),
                             resident_kernel_of<double>(true)}) {
    cudaFuncAttributes attributes{};
    HF_GPU_CHECK(cudaFuncGetAttributes(&attributes, kernel));
  }
}

namespace {

using Stream = haloflag::notify::GpuStream;
using Event = haloflag::notify::GpuEvent;

int multiprocessors() {
  int device = 0;
  int count = 0;
  HF_GPU_CHECK(cudaGetDevice(&device));
  HF_GPU_CHECK(cudaDeviceGetAttribute(&count, cudaDevAttrMultiProcessorCount, device));
  return count;
}

template <class Real>
class GpuOwnedSweep final : public OwnedSweep<Real> {
 public:
  explicit GpuOwnedSweep(int threads) : threads_(threads), sms_(multiprocessors()) {
    check_threads(threads);
  }

  void run(StencilKind stencil, const SweepFields<Real>& fields, const hk::Box& owned) override {
    enqueue(stencil, fields, owned);
    synchronize();
  }

  void enqueue(StencilKind stencil, const SweepFields<Real>& fields,
               const hk::Box& owned) override {
    owned_sweep_kernel<Real>
        <<<blocks_for(owned), threads_, 0, stream_.get()>>>(stencil, fields, owned);
    HF_GPU_CHECK(cudaGetLastError());
  }

  haloflag::notify::WorkStream stream() override {
    return haloflag::notify::WorkStream(stream_.get());
  }

  void synchronize() override { HF_GPU_CHECK(cudaStreamSynchronize(stream_.get())); }

  std::string describe(const hk::Box& owned) const override {
    return "update: " + std::to_string(blocks_for(owned)) + " blocks x " +
           std::to_string(threads_) + " threads per iteration";
  }

 private:
  // One cell per thread, capped at a few waves of blocks (the sweep strides over the rest).
  unsigned blocks_for(const hk::Box& owned) const {
    const std::int64_t wanted = (owned.cells() + threads_ - 1) / threads_;
    const std::int64_t cap = std::int64_t{sms_} * 32;
    return static_cast<unsigned>(wanted < cap ? (wanted > 0 ? wanted : 1) : cap);
  }

  int threads_;
  int sms_;
  Stream stream_;
};

template <class Real>
class GpuResidentKernel final : public ResidentKernel<Real> {
 public:
  explicit GpuResidentKernel(const RunSettings& settings)
      : threads_(settings.gpu_threads), sms_(multiprocessors()) {
    check_threads(threads_);
    HF_GPU_CHECK(cudaGetDevice(&device_));
    int cooperative = 0;
    HF_GPU_CHECK(cudaDeviceGetAttribute(&cooperative, cudaDevAttrCooperativeLaunch, device_));
    if (!cooperative) {
      throw std::runtime_error("the resident Jacobi kernel needs cooperative launches; GPU " +
                               std::to_string(device_) + " does not support them");
    }
    // The form is the launch's choice: both must fit.
    int per_sm = 0;
    for (const bool whole : {false, true}) {
      int fits = 0;
      HF_GPU_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
          &fits, resident_kernel_of<Real>(whole), threads_, 0));
      per_sm = whole ? std::min(per_sm, fits) : fits;
    }
    const int fit = per_sm * sms_;
    blocks_ = settings.resident_blocks > 0 ? settings.resident_blocks : sms_;
    if (blocks_ > fit || fit == 0) {
      throw std::runtime_error(
          "the resident Jacobi kernel asked for " + std::to_string(blocks_) + " blocks of " +
          std::to_string(threads_) + " threads, but GPU " + std::to_string(device_) +
          " fits only " + std::to_string(fit) + " at once (" + std::to_string(per_sm) +
          " per SM x " + std::to_string(sms_) + " SMs); ask for fewer with --resident-blocks");
    }
  }

  ~GpuResidentKernel() override { (void)cudaStreamSynchronize(stream_.get()); }

  void launch(const ResidentLaunch<Real>& launch) override {
    launch_ = launch;  // the argument array points at it until the launch call returns
    void* arguments[] = {&launch_};
    HF_GPU_CHECK(cudaEventRecord(begin_.get(), stream_.get()));
    HF_GPU_CHECK(cudaLaunchCooperativeKernel(resident_kernel_of<Real>(launch.whole_exchange),
                                             dim3(static_cast<unsigned>(blocks_)),
                                             dim3(static_cast<unsigned>(threads_)), arguments, 0,
                                             stream_.get()));
    HF_GPU_CHECK(cudaEventRecord(end_.get(), stream_.get()));
  }

  ResidentOutcome wait() override {
    HF_GPU_CHECK(cudaEventSynchronize(end_.get()));
    float milliseconds = 0.0f;
    HF_GPU_CHECK(cudaEventElapsedTime(&milliseconds, begin_.get(), end_.get()));
    // The kernel does not report per block; the host's exchange names any failed wait.
    return {static_cast<double>(milliseconds) * 1e-3, true};
  }

  std::string describe() const override {
    return "cooperative grid: " + std::to_string(blocks_) + " blocks x " +
           std::to_string(threads_) + " threads on GPU " + std::to_string(device_);
  }

 private:
  int threads_;
  int sms_;
  int device_ = 0;
  int blocks_ = 0;
  ResidentLaunch<Real> launch_{};
  Stream stream_;
  Event begin_;
  Event end_;
};

}  // namespace

template <class Real>
std::unique_ptr<OwnedSweep<Real>> make_gpu_owned_sweep(int threads) {
  return std::make_unique<GpuOwnedSweep<Real>>(threads);
}

template <class Real>
std::unique_ptr<ResidentKernel<Real>> make_gpu_resident_kernel(const RunSettings& settings) {
  return std::make_unique<GpuResidentKernel<Real>>(settings);
}

template std::unique_ptr<OwnedSweep<float>> make_gpu_owned_sweep<float>(int);
template std::unique_ptr<OwnedSweep<double>> make_gpu_owned_sweep<double>(int);
template std::unique_ptr<ResidentKernel<float>> make_gpu_resident_kernel<float>(const RunSettings&);
template std::unique_ptr<ResidentKernel<double>> make_gpu_resident_kernel<double>(
    const RunSettings&);

}  // namespace jacobi3d
