// The GPU side of the example, for CUDA and (through notify/gpu_runtime.hpp) HIP: the row update
// kernel of the lanes, the norm's publication, and the resident kernel as a cooperative launch
// sized by the rank's cells within what the occupancy API says fits. Each kernel is compiled for
// float and for double fields.
#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "gpu_jacobi2d.hpp"
#include "haloflag/examples/cooperative_grid.hpp"
#include "haloflag/examples/gpu_streams.hpp"
#include "haloflag/examples/gpu_threads.hpp"
#include "haloflag/kernels/gpu_groups.hpp"
#include "haloflag/notify/gpu_runtime.hpp"
#include "norm_accumulator.hpp"
#include "resident_launch.hpp"
#include "resident_steps.hpp"
#include "row_sweeps.hpp"

namespace jacobi2d {

namespace {

namespace hk = haloflag::kernels;

// Threads per block are at most kMaxGpuThreads (checked_gpu_threads): the compiler budgets
// registers for that.
using haloflag::examples::checked_gpu_threads;
using haloflag::examples::kMaxGpuThreads;

// The sum of `value` over a warp, in lane 0 (device code only: nothing else calls it).
#if HF_DEVICE_CODE
__device__ double warp_sum(double value) {
#if defined(HALOFLAG_HAVE_HIP)
  for (int offset = warpSize / 2; offset > 0; offset /= 2) value += __shfl_down(value, offset);
#else
  for (int offset = 16; offset > 0; offset /= 2) {
    value += __shfl_down_sync(0xffffffffu, value, offset);
  }
#endif
  return value;
}
#endif

// Adds a block's sums with one atomic, so that a check costs one atomic per block on the
// accumulator, not one per warp: every thread of the block must call it together.
struct BlockNormAdd {
  HF_HD void operator()(double* norm, double value) const {
#if HF_DEVICE_CODE
    __shared__ double warp_sums[kMaxGpuThreads / 32];
    const int lane = static_cast<int>(threadIdx.x) % warpSize;
    const int warp = static_cast<int>(threadIdx.x) / warpSize;
    value = warp_sum(value);
    if (lane == 0) warp_sums[warp] = value;
    __syncthreads();
    if (warp == 0) {
      const int warps = (static_cast<int>(blockDim.x) + warpSize - 1) / warpSize;
      const double total = warp_sum(lane < warps ? warp_sums[lane] : 0.0);
      if (lane == 0) add_norm(norm, total);
    }
    __syncthreads();  // warp_sums serves the next call
#else
    add_norm(norm, value);
#endif
  }
};

template <class Real>
__global__ void __launch_bounds__(kMaxGpuThreads)
    rows_kernel(PlaneStep<Real> step, RowSet rows, double* norm) {
  const double sum = sweep_rows(step, rows,
                                static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x,
                                static_cast<std::int64_t>(gridDim.x) * blockDim.x,
                                norm != nullptr);
  if (norm != nullptr) BlockNormAdd{}(norm, sum);
}

__global__ void publish_kernel(double* norm, NormSlots slots, std::uint64_t check) {
  publish_norm(slots, check, take_norm(norm));
}

// kLines: the embedded API's build, kSendsUpdate: the boundary rows inside the start
// (resident_steps).
template <class Real, hk::LinesCode kLines, bool kSendsUpdate>
__global__ void __launch_bounds__(kMaxGpuThreads) resident_kernel(ResidentLaunch<Real> launch) {
  (void)resident_steps<kLines, kSendsUpdate>(hk::ThreadBlockGroup{}, hk::CooperativeGridGroup{},
                                             blockIdx.x, gridDim.x, launch, BlockNormAdd{});
}

// Instantiated here for both types: hipcc emits a template kernel's host stub where the kernel
// is instantiated.
template __global__ void rows_kernel<float>(PlaneStep<float>, RowSet, double*);
template __global__ void rows_kernel<double>(PlaneStep<double>, RowSet, double*);
// The forms: sends that update their rows are built without lines only, as in
// HostResidentSteps.
using hk::LinesCode;
template __global__ void resident_kernel<float, LinesCode::present, false>(ResidentLaunch<float>);
template __global__ void resident_kernel<double, LinesCode::present, false>(
    ResidentLaunch<double>);
template __global__ void resident_kernel<float, LinesCode::absent, false>(ResidentLaunch<float>);
template __global__ void resident_kernel<double, LinesCode::absent, false>(ResidentLaunch<double>);
template __global__ void resident_kernel<float, LinesCode::absent, true>(ResidentLaunch<float>);
template __global__ void resident_kernel<double, LinesCode::absent, true>(ResidentLaunch<double>);

template <class Real>
const void* resident_kernel_of(LinesCode lines, bool sends_update) {
  if (lines == LinesCode::present) {
    return reinterpret_cast<const void*>(resident_kernel<Real, LinesCode::present, false>);
  }
  const auto updating = resident_kernel<Real, LinesCode::absent, true>;
  const auto boundary_first = resident_kernel<Real, LinesCode::absent, false>;
  return sends_update ? reinterpret_cast<const void*>(updating)
                      : reinterpret_cast<const void*>(boundary_first);
}

using haloflag::examples::blocks_held;
using haloflag::examples::PriorityStream;

template <class Real>
class GpuRowSweeps final : public RowSweeps<Real> {
 public:
  explicit GpuRowSweeps(int threads)
      : threads_(checked_gpu_threads(threads)),
        wave_(blocks_held(reinterpret_cast<const void*>(rows_kernel<Real>), threads_)) {}

  void enqueue(Lane lane, const PlaneStep<Real>& step, const RowSet& rows,
               double* norm) override {
    if (rows.count <= 0) return;
    rows_kernel<Real><<<blocks_for(step, rows), threads_, 0, get(lane)>>>(step, rows, norm);
    HF_GPU_CHECK(cudaGetLastError());
  }
  void enqueue_publish(Lane lane, double* norm, const NormSlots& slots,
                       std::uint64_t check) override {
    publish_kernel<<<1, 1, 0, get(lane)>>>(norm, slots, check);
    HF_GPU_CHECK(cudaGetLastError());
  }
  void enqueue_copy(Lane lane, void* to, const void* from, std::size_t bytes) override {
    HF_GPU_CHECK(cudaMemcpyAsync(to, from, bytes, cudaMemcpyDeviceToDevice, get(lane)));
  }
  haloflag::notify::WorkStream stream(Lane lane) override {
    return haloflag::notify::WorkStream(get(lane));
  }
  void synchronize(Lane lane) override { HF_GPU_CHECK(cudaStreamSynchronize(get(lane))); }
  double take(double* norm) override {
    double value = 0.0;
    HF_GPU_CHECK(cudaMemcpy(&value, norm, sizeof value, cudaMemcpyDeviceToHost));
    HF_GPU_CHECK(cudaMemset(norm, 0, sizeof value));
    return value;
  }
  std::string describe() const override {
    return "update: a wave of " + std::to_string(wave_) + " blocks x " +
           std::to_string(threads_) +
           " threads per launch, more where each thread then walks " +
           std::to_string(kMaxRowRun) + " rows; boundary rows on a high-priority stream";
  }

 private:
  cudaStream_t get(Lane lane) const {
    return lane == Lane::boundary ? boundary_.get() : interior_.get();
  }
  // One wave of the blocks the GPU holds at once, so that each member walks down several rows
  // (sweep_rows), and more once every member has a run of the longest: then the runs stay as
  // long, and small blocks let the scheduler fill the slots the exchange's own kernels hold (one
  // wave would leave its last blocks a second round on a few multiprocessors).
  unsigned blocks_for(const PlaneStep<Real>& step, const RowSet& rows) const {
    const std::int64_t cells = (step.nx - 2) * rows.count;
    const std::int64_t one_wave = std::min<std::int64_t>((cells + threads_ - 1) / threads_, wave_);
    const std::int64_t longest = (items_at_longest_run(step, rows) + threads_ - 1) / threads_;
    return static_cast<unsigned>(std::max<std::int64_t>({one_wave, longest, 1}));
  }

  int threads_;
  int wave_;  // blocks of threads_ resident at once
  PriorityStream boundary_{PriorityStream::Priority::highest};
  PriorityStream interior_{PriorityStream::Priority::lowest};
};

// The resident kernel as the examples' cooperative launch (CooperativeGrid), sized by the rank's
// cells (default_resident_blocks) unless --resident-blocks says otherwise.
template <class Real>
class GpuResidentKernel final : public ResidentKernel<Real> {
 public:
  GpuResidentKernel(int threads, int blocks, int sharers, std::int64_t cells)
      : grid_({resident_kernel_of<Real>(LinesCode::present, false),
               resident_kernel_of<Real>(LinesCode::absent, false),
               resident_kernel_of<Real>(LinesCode::absent, true)},
              checked_gpu_threads(threads), blocks, sharers, cells) {}

  void launch(const ResidentLaunch<Real>& launch) override {
    launch_ = launch;  // the argument array points at it until the launch call returns
    void* arguments[] = {&launch_};
    // Without the lines' code unless a node peer takes lines: fewer registers.
    const LinesCode lines = hk::embedded_lines_build(launch.plans[0]);
    grid_.launch(resident_kernel_of<Real>(lines, launch.sends_update_cells), arguments);
  }

  haloflag::examples::ResidentOutcome wait() override { return {grid_.wait(), true}; }
  int blocks() const override { return grid_.blocks(); }

  std::string describe() const override {
    return grid_.describe() + " (occupancy: " + std::to_string(grid_.per_sm()) + " per SM" +
           (grid_.sharers() > 1 ? ", shared by " + std::to_string(grid_.sharers()) + " ranks"
                                : "") +
           ")";
  }

 private:
  ResidentLaunch<Real> launch_{};
  haloflag::examples::CooperativeGrid grid_;
};

}  // namespace

void load_gpu_kernels() {
  for (const void* kernel : {reinterpret_cast<const void*>(rows_kernel<float>),
                             reinterpret_cast<const void*>(rows_kernel<double>),
                             reinterpret_cast<const void*>(publish_kernel),
                             resident_kernel_of<float>(LinesCode::present, false),
                             resident_kernel_of<float>(LinesCode::absent, false),
                             resident_kernel_of<float>(LinesCode::absent, true),
                             resident_kernel_of<double>(LinesCode::present, false),
                             resident_kernel_of<double>(LinesCode::absent, false),
                             resident_kernel_of<double>(LinesCode::absent, true)}) {
    cudaFuncAttributes attributes{};
    HF_GPU_CHECK(cudaFuncGetAttributes(&attributes, kernel));
  }
}

template <class Real>
std::unique_ptr<RowSweeps<Real>> GpuSide<Real>::row_sweeps(int threads) {
  return std::make_unique<GpuRowSweeps<Real>>(threads);
}

template <class Real>
std::unique_ptr<ResidentKernel<Real>> GpuSide<Real>::resident_kernel(int threads, int blocks,
                                                                     int sharers,
                                                                     std::int64_t cells) {
  return std::make_unique<GpuResidentKernel<Real>>(threads, blocks, sharers, cells);
}

template struct GpuSide<float>;
template struct GpuSide<double>;

}  // namespace jacobi2d
