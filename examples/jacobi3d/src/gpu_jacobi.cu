// The GPU side of the example, for CUDA and (through notify/gpu_runtime.hpp) HIP: the update
// kernels of the conventional, conventional_overlap and stream variants, and the resident
// kernel (resident_kernel.hpp) as a cooperative launch that is checked for co-residency first (a
// grid barrier with a block that is not resident never returns). Each kernel is compiled for
// float and for double fields.
#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "box_sweep.hpp"
#include "gpu_jacobi.hpp"
#include "haloflag/examples/cooperative_grid.hpp"
#include "haloflag/examples/gpu_streams.hpp"
#include "haloflag/examples/gpu_threads.hpp"
#include "haloflag/kernels/gpu_groups.hpp"
#include "haloflag/notify/gpu_handles.hpp"
#include "haloflag/notify/gpu_runtime.hpp"
#include "resident_iterations.hpp"
#include "resident_kernel.hpp"
#include "staged_run.hpp"

namespace jacobi3d {

namespace {

namespace hk = haloflag::kernels;

// Threads per block are at most kMaxGpuThreads (checked_gpu_threads): the compiler budgets
// registers for that.
using haloflag::examples::checked_gpu_threads;
using haloflag::examples::kMaxGpuThreads;
// The x extent of a block of box_kernel: one warp (32 lanes on NVIDIA; a half wavefront on AMD,
// whose 64-lane wavefronts then span two rows) covers a contiguous run of a row.
constexpr int kRowRun = 32;

// Every cell of `box`: blocks of kRowRun x (threads / kRowRun) columns of one x-y tile, each
// thread walking up `run` planes of its column (update_column), the grid's z one run each. Each
// warp reads and writes a contiguous run of a row (coalesced), and no thread divides to find its
// cell.
template <class Real>
__global__ void __launch_bounds__(kMaxGpuThreads)
    box_kernel(StencilKind stencil, SweepFields<Real> fields, hk::Box box, std::uint32_t run) {
  const std::int64_t x = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::int64_t y = static_cast<std::int64_t>(blockIdx.y) * blockDim.y + threadIdx.y;
  if (x >= box.extent[0] || y >= box.extent[1]) return;
  const std::int64_t z = static_cast<std::int64_t>(blockIdx.z) * run;
  update_column(stencil, fields,
                (box.begin[2] + z) * fields.stride_z + (box.begin[1] + y) * fields.stride_y +
                    box.begin[0] + x,
                std::min<std::int64_t>(run, box.extent[2] - z));
}

// The boundary layer's slabs as one sweep over a 1-D grid (sweep_boxes): most slabs are thin,
// and one grid over all of them keeps every cell's loads in flight at once.
template <class Real>
__global__ void __launch_bounds__(kMaxGpuThreads)
    boundary_kernel(StencilKind stencil, SweepFields<Real> fields, BoundaryLayer boundary) {
  sweep_boxes(stencil, fields, boundary.boxes, boundary.count,
              static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x,
              static_cast<std::int64_t>(gridDim.x) * blockDim.x);
}

// Instantiated here for both types: hipcc emits a template kernel's host stub where the kernel
// is instantiated, and load_gpu_kernels() only takes its address (the link found none).
template __global__ void box_kernel<float>(StencilKind, SweepFields<float>, hk::Box,
                                           std::uint32_t);
template __global__ void box_kernel<double>(StencilKind, SweepFields<double>, hk::Box,
                                            std::uint32_t);
template __global__ void boundary_kernel<float>(StencilKind, SweepFields<float>, BoundaryLayer);
template __global__ void boundary_kernel<double>(StencilKind, SweepFields<double>,
                                                 BoundaryLayer);

}  // namespace

using haloflag::kernels::LinesCode;

GpuRoom gpu_room() {
  int device = 0;
  GpuRoom room;
  room.multiprocessors = haloflag::examples::multiprocessors();
  HF_GPU_CHECK(cudaGetDevice(&device));
  HF_GPU_CHECK(cudaDeviceGetAttribute(&room.threads_per_multiprocessor,
                                      cudaDevAttrMaxThreadsPerMultiProcessor, device));
  return room;
}

void load_gpu_kernels() {
  for (const void* kernel : {reinterpret_cast<const void*>(box_kernel<float>),
                             reinterpret_cast<const void*>(box_kernel<double>),
                             reinterpret_cast<const void*>(boundary_kernel<float>),
                             reinterpret_cast<const void*>(boundary_kernel<double>),
                             resident_kernel_of<float>(false), resident_kernel_of<double>(false),
                             resident_kernel_of<float>(true, LinesCode::present),
                             resident_kernel_of<float>(true, LinesCode::absent),
                             resident_kernel_of<double>(true, LinesCode::present),
                             resident_kernel_of<double>(true, LinesCode::absent),
                             resident_kernel_of<float>(true, LinesCode::absent, true),
                             resident_kernel_of<double>(true, LinesCode::absent, true),
                             resident_kernel_of<float>(true, LinesCode::absent, true, true),
                             resident_kernel_of<double>(true, LinesCode::absent, true, true)}) {
    cudaFuncAttributes attributes{};
    HF_GPU_CHECK(cudaFuncGetAttributes(&attributes, kernel));
  }
}

namespace {

using Event = haloflag::notify::GpuEvent;

using haloflag::examples::blocks_held;
using haloflag::examples::multiprocessors;
using haloflag::examples::PriorityStream;

// Work enqueued on `stream` after this waits for `event`'s last record (gpu_runtime.hpp maps no
// name for it).
void stream_wait(cudaStream_t stream, const Event& event) {
#if defined(HALOFLAG_HAVE_HIP)
  HF_GPU_CHECK(hipStreamWaitEvent(stream, event.get(), 0));
#else
  HF_GPU_CHECK(cudaStreamWaitEvent(stream, event.get(), 0));
#endif
}

double elapsed_seconds(const Event& begin, const Event& end) {
  HF_GPU_CHECK(cudaEventSynchronize(end.get()));
  float milliseconds = 0.0f;
  HF_GPU_CHECK(cudaEventElapsedTime(&milliseconds, begin.get(), end.get()));
  return static_cast<double>(milliseconds) * 1e-3;
}

// box_kernel's launch shape for `box`: one thread per column run.
struct BoxLaunch {
  dim3 grid;
  dim3 block;
  std::uint32_t run = 1;  // planes per thread
  bool empty() const { return grid.x == 0 || grid.y == 0 || grid.z == 0; }
  std::string describe() const {
    return "grid " + std::to_string(grid.x) + "x" + std::to_string(grid.y) + "x" +
           std::to_string(grid.z) + " of " + std::to_string(block.x) + "x" +
           std::to_string(block.y) + " threads, a column of " + std::to_string(run) +
           (run == 1 ? " plane" : " planes") + " each";
  }
};

// `held`: the blocks of box_kernel the GPU holds at once (occupancy API), which the column runs
// are sized for (column_run).
BoxLaunch box_launch(const hk::Box& box, int threads, int held) {
  const int rows = threads / kRowRun;
  // The grid's y and z hold at most 65535 blocks.
  if ((box.extent[1] + rows - 1) / rows > 65535 || box.extent[2] > 65535) {
    throw std::invalid_argument("a rank's part of at most 65535 cells per y and z axis fits the "
                                "update kernel's grid, got " +
                                std::to_string(box.extent[1]) + " and " +
                                std::to_string(box.extent[2]));
  }
  const auto tiles_x = static_cast<unsigned>((box.extent[0] + kRowRun - 1) / kRowRun);
  const auto tiles_y = static_cast<unsigned>((box.extent[1] + rows - 1) / rows);
  const auto planes = static_cast<std::uint32_t>(box.extent[2]);
  const std::uint32_t run =
      column_run(tiles_x * tiles_y, planes, static_cast<std::uint32_t>(std::max(held, 1)));
  return {dim3(tiles_x, tiles_y, (planes + run - 1) / run),
          dim3(kRowRun, static_cast<unsigned>(rows)), run};
}

template <class Real>
void launch_box(StencilKind stencil, const SweepFields<Real>& fields, const hk::Box& box,
                int threads, int held, cudaStream_t stream) {
  const BoxLaunch shape = box_launch(box, threads, held);
  if (shape.empty()) return;
  box_kernel<Real><<<shape.grid, shape.block, 0, stream>>>(stencil, fields, box, shape.run);
  HF_GPU_CHECK(cudaGetLastError());
}

// The boundary layer's blocks: one cell per thread, capped at a few waves of blocks (the sweep
// strides over the rest).
unsigned boundary_blocks(const BoundaryLayer& boundary, int threads, int sms) {
  std::int64_t cells = 0;
  for (int b = 0; b < boundary.count; ++b) cells += boundary.boxes[b].cells();
  const std::int64_t wanted = (cells + threads - 1) / threads;
  return static_cast<unsigned>(std::min(wanted, std::int64_t{sms} * 32));
}

template <class Real>
void launch_boundary(StencilKind stencil, const SweepFields<Real>& fields,
                     const BoundaryLayer& boundary, int threads, int sms, cudaStream_t stream) {
  const unsigned blocks = boundary_blocks(boundary, threads, sms);
  if (blocks == 0) return;
  boundary_kernel<Real><<<blocks, threads, 0, stream>>>(stencil, fields, boundary);
  HF_GPU_CHECK(cudaGetLastError());
}

template <class Real>
class GpuOwnedSweep final : public OwnedSweep<Real> {
 public:
  explicit GpuOwnedSweep(int threads)
      : threads_(checked_gpu_threads(threads)),
        sms_(multiprocessors()),
        held_(blocks_held(reinterpret_cast<const void*>(box_kernel<Real>), threads_)) {}

  void run(StencilKind stencil, const SweepFields<Real>& fields, const hk::Box& owned) override {
    enqueue(stencil, fields, owned);
    synchronize();
  }

  void enqueue(StencilKind stencil, const SweepFields<Real>& fields,
               const hk::Box& owned) override {
    launch_box(stencil, fields, owned, threads_, held_, stream_.get());
  }

  void enqueue_boundary(StencilKind stencil, const SweepFields<Real>& fields,
                        const BoundaryLayer& boundary) override {
    launch_boundary(stencil, fields, boundary, threads_, sms_, stream_.get());
  }

  haloflag::notify::WorkStream stream() override {
    return haloflag::notify::WorkStream(stream_.get());
  }

  void synchronize() override { HF_GPU_CHECK(cudaStreamSynchronize(stream_.get())); }

  double time_updates(StencilKind stencil, const std::array<SweepFields<Real>, 2>& steps,
                      int first_in, const SweepRegions& regions, bool boundary_first,
                      int iterations) override {
    HF_GPU_CHECK(cudaEventRecord(begin_.get(), stream_.get()));
    for (int i = 0; i < iterations; ++i) {
      const SweepFields<Real>& fields = steps[(first_in + i) & 1];
      if (boundary_first) {
        enqueue_boundary(stencil, fields, regions.boundary);
        enqueue(stencil, fields, regions.interior);
      } else {
        enqueue(stencil, fields, regions.owned);
      }
    }
    HF_GPU_CHECK(cudaEventRecord(end_.get(), stream_.get()));
    return elapsed_seconds(begin_, end_);
  }

  std::string describe(const hk::Box& owned) const override {
    return "update: " + box_launch(owned, threads_, held_).describe() + " per iteration";
  }

 private:
  int threads_;
  int sms_;
  int held_;  // box_kernel's blocks the GPU holds at once
  Event begin_;
  Event end_;
  haloflag::notify::GpuStream stream_;  // destroyed first: it waits for its work
};

// The boundary layer's kernel on a stream of the highest priority, so that its blocks go before
// the interior's, and the interior's on one of the lowest, so that the exchange's pack and
// unpack kernels (on the exchange's own streams of the highest priority) take multiprocessors
// ahead of it as its blocks retire. Events order each step after both parts of the one before.
//
// The two launches are not replayed as a CUDA graph: both are issued before the host's first
// wait of the step, so their issue cost is spent while the boundary kernel runs, and the host
// must wait for the boundary alone (the exchange packs it next), which a graph of both would
// need an event node for. The exchange can replay its own kernels as graphs (comb_graph).
template <class Real>
class GpuOverlapSweep final : public OverlapSweep<Real> {
 public:
  explicit GpuOverlapSweep(int threads)
      : threads_(checked_gpu_threads(threads)),
        sms_(multiprocessors()),
        held_(blocks_held(reinterpret_cast<const void*>(box_kernel<Real>), threads_)) {}

  void enqueue_boundary(StencilKind stencil, const SweepFields<Real>& fields,
                        const BoundaryLayer& boundary) override {
    stream_wait(boundary_stream_.get(), interior_done_);
    HF_GPU_CHECK(cudaEventRecord(step_begin_.get(), boundary_stream_.get()));
    launch_boundary(stencil, fields, boundary, threads_, sms_, boundary_stream_.get());
    HF_GPU_CHECK(cudaEventRecord(boundary_done_.get(), boundary_stream_.get()));
  }

  void enqueue_interior(StencilKind stencil, const SweepFields<Real>& fields,
                        const hk::Box& interior) override {
    stream_wait(interior_stream_.get(), step_begin_);
    launch_box(stencil, fields, interior, threads_, held_, interior_stream_.get());
    HF_GPU_CHECK(cudaEventRecord(interior_done_.get(), interior_stream_.get()));
  }

  void wait_boundary() override { HF_GPU_CHECK(cudaEventSynchronize(boundary_done_.get())); }
  void wait_interior() override { HF_GPU_CHECK(cudaEventSynchronize(interior_done_.get())); }

  double time_updates(StencilKind stencil, const std::array<SweepFields<Real>, 2>& steps,
                      int first_in, const SweepRegions& regions, int iterations) override {
    stream_wait(boundary_stream_.get(), interior_done_);
    HF_GPU_CHECK(cudaEventRecord(begin_.get(), boundary_stream_.get()));
    for (int i = 0; i < iterations; ++i) {
      const SweepFields<Real>& fields = steps[(first_in + i) & 1];
      enqueue_boundary(stencil, fields, regions.boundary);
      enqueue_interior(stencil, fields, regions.interior);
    }
    stream_wait(boundary_stream_.get(), interior_done_);
    HF_GPU_CHECK(cudaEventRecord(end_.get(), boundary_stream_.get()));
    return elapsed_seconds(begin_, end_);
  }

  std::string describe(const SweepRegions& regions) const override {
    return "update: boundary layer " +
           std::to_string(boundary_blocks(regions.boundary, threads_, sms_)) +
           " blocks x " + std::to_string(threads_) +
           " threads on a high-priority stream, interior " +
           box_launch(regions.interior, threads_, held_).describe() + " on a low-priority stream";
  }

 private:
  int threads_;
  int sms_;
  int held_;  // box_kernel's blocks the GPU holds at once
  Event step_begin_;  // a step's boundary stream once both parts of the step before are done
  Event boundary_done_;
  Event interior_done_;
  Event begin_;
  Event end_;
  // Destroyed first: each waits for its work.
  PriorityStream boundary_stream_{PriorityStream::Priority::highest};
  PriorityStream interior_stream_{PriorityStream::Priority::lowest};
};

// The resident kernel as the examples' cooperative launch (CooperativeGrid), sized for the
// fewer blocks of its two forms.
//
// By default the grid is sized by the owned cells (default_resident_blocks): the sweeps are
// memory-bound and want threads enough to keep the memory busy, up to every one the GPU holds at
// large sizes, while each block lengthens every grid barrier, which small sizes feel most.
// Nothing else of this program needs a place beside it while it runs: the conventional
// variants' exchange kernels end with each exchange, and the stream variant's resident exchange
// kernels, which would hold multiprocessors that a full grid needs, leave the GPU once idle for
// ExchangeOptions::idle_exit (2 ms). A cooperative launch waits until its whole grid fits, so a
// resident run right after a stream run would wait that long: main() lets the window pass
// before it (untimed), and no margin is taken off the grid for them.
template <class Real>
class GpuResidentKernel final : public ResidentKernel<Real> {
 public:
  GpuResidentKernel(const RunSettings& settings, std::int64_t cells)
      : threads_(checked_gpu_threads(settings.gpu_threads)),
        grid_({resident_kernel_of<Real>(false),
               resident_kernel_of<Real>(true, LinesCode::present),
               resident_kernel_of<Real>(true, LinesCode::absent),
               resident_kernel_of<Real>(true, LinesCode::absent, true),
               // The staged walk's kernel only for the blocks it serves: its shared memory would
               // shrink the grid that fits for blocks of other sizes (the smallest fit counts).
               resident_kernel_of<Real>(true, LinesCode::absent, true,
                                        static_cast<std::uint32_t>(threads_) == kTileCells)},
              threads_, settings.resident_blocks, settings.gpu_sharers, cells) {}

  void launch(const ResidentLaunch<Real>& launch) override {
    launch_ = launch;  // the argument array points at it until the launch call returns
    void* arguments[] = {&launch_};
    // The whole exchange without the lines' code unless a node peer takes lines: fewer
    // registers (docs/design.md, "Lines"). The staged walk's kernel only where it stages: its
    // ring of shared memory slows the sweeps that do not.
    const LinesCode lines = hk::embedded_lines_build(launch.plans[0]);
    const bool staged = launch.interior_counter != nullptr &&
                        staged_walk_pays(launch.regions.interior,
                                         static_cast<std::uint32_t>(grid_.blocks()),
                                         static_cast<std::uint32_t>(threads_));
    grid_.launch(resident_kernel_of<Real>(launch.whole_exchange, lines,
                                          launch.sends_update_cells, staged),
                 arguments);
  }

  haloflag::examples::ResidentOutcome wait() override {
    const double seconds = grid_.wait();
    // The kernel does not report per block; the host's exchange names any failed wait.
    return {seconds, true};
  }

  int blocks() const override { return grid_.blocks(); }

  std::string describe() const override {
    return grid_.describe() +
           (grid_.sharers() > 1 ? " (its share of " + std::to_string(grid_.sharers()) + " ranks)"
                                : "");
  }

 private:
  ResidentLaunch<Real> launch_{};
  int threads_;
  haloflag::examples::CooperativeGrid grid_;
};

}  // namespace

template <class Real>
std::unique_ptr<OwnedSweep<Real>> GpuSide<Real>::owned_sweep(int threads) {
  return std::make_unique<GpuOwnedSweep<Real>>(threads);
}

template <class Real>
std::unique_ptr<OverlapSweep<Real>> GpuSide<Real>::overlap_sweep(int threads) {
  return std::make_unique<GpuOverlapSweep<Real>>(threads);
}

template <class Real>
std::unique_ptr<ResidentKernel<Real>> GpuSide<Real>::resident_kernel(const RunSettings& settings,
                                                                     std::int64_t cells) {
  return std::make_unique<GpuResidentKernel<Real>>(settings, cells);
}

template struct GpuSide<float>;
template struct GpuSide<double>;

}  // namespace jacobi3d
