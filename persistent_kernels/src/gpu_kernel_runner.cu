// The CUDA/HIP KernelRunner: __global__ wrappers around the block programs, two high-priority
// streams (pack lane, unpack lane), graphs for comb_graph, and co-residency checks for the
// persistent and cooperative launches (docs/design.md, rule 6).
#include <algorithm>
#include <map>
#include <memory>
#include <string>

#include "haloflag/kernels/block_programs.hpp"
#include "haloflag/kernels/fused_chunks.hpp"
#include "haloflag/kernels/transports/piece_grid_steps.hpp"
#include "haloflag/kernels/gpu_groups.hpp"
#include "haloflag/notify/gpu_runtime.hpp"
#include "runner_factories.hpp"

namespace haloflag::kernels::detail {
namespace {

// Every kernel may be launched with up to 1024 threads per block (LaunchSettings): the
// compiler keeps register use within what such a block needs.
constexpr int kMaxBlockThreads = 1024;

// Fused (Comb) kernels: blockIdx.y picks the message, the gridDim.x blocks along x share its
// 16-byte chunks (fused_chunks.hpp).
__global__ void __launch_bounds__(kMaxBlockThreads) fused_pack_kernel(ExchangePlan plan) {
  fused_pack_message(plan.sends[blockIdx.y], fields_of(plan), send_data(plan, blockIdx.y),
                     blockIdx.x * blockDim.x + threadIdx.x, gridDim.x * blockDim.x);
}

__global__ void __launch_bounds__(kMaxBlockThreads) fused_unpack_kernel(ExchangePlan plan) {
  fused_unpack_message(plan.recvs[blockIdx.y], fields_of(plan), recv_data(plan, blockIdx.y),
                       blockIdx.x * blockDim.x + threadIdx.x, gridDim.x * blockDim.x);
}

// Per-message (stream_base) kernels: blockIdx.y picks the message, one block moves it.
__global__ void __launch_bounds__(kMaxBlockThreads) pack_kernel(ExchangePlan plan) {
  pack_message_at(plan.sends[blockIdx.y], fields_of(plan), send_data(plan, blockIdx.y),
                  static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x),
                  static_cast<int>(gridDim.x * blockDim.x));
}

__global__ void __launch_bounds__(kMaxBlockThreads) unpack_kernel(ExchangePlan plan) {
  unpack_message_from(plan.recvs[blockIdx.y], fields_of(plan), recv_data(plan, blockIdx.y),
                      static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x),
                      static_cast<int>(gridDim.x * blockDim.x));
}

__global__ void __launch_bounds__(kMaxBlockThreads) notify_pack_kernel(ExchangePlan plan, std::uint64_t epoch) {
  pack_block(ThreadBlockGroup{}, plan, blockIdx.x, epoch);
}

__global__ void __launch_bounds__(kMaxBlockThreads) notify_unpack_kernel(ExchangePlan plan, std::uint64_t epoch) {
  unpack_receive(ThreadBlockGroup{}, plan, unpack_role(plan, blockIdx.x), epoch, blockIdx.x);
}

// The kernels that move pieces come in two builds, with and without the lines' code (LinesCode):
// the runner launches the one its plan needs.
template <LinesCode Lines>
__global__ void __launch_bounds__(kMaxBlockThreads) stacked_kernel(ExchangePlan plan, std::uint64_t epoch) {
  stacked_exchange<Lines>(ThreadBlockGroup{}, plan, blockIdx.x, gridDim.x, epoch);
}

// The resident kernels run their block's epochs, `step(epoch)` each, until one ends it
// (end_resident_block says what an ending releases); block 0 of the pack and piece grids watches
// the start.
template <class Step>
__device__ __forceinline__ void run_resident_epochs(const ExchangePlan& plan,
                                                    std::uint64_t first_epoch, Step step) {
  BlockStatus status = BlockStatus::ok;
  for (std::uint64_t epoch = first_epoch; status == BlockStatus::ok; ++epoch) status = step(epoch);
  if (threadIdx.x == 0) end_resident_block(plan, status);
}

__global__ void __launch_bounds__(kMaxBlockThreads) resident_pack_kernel(ExchangePlan plan, std::uint64_t first_epoch, std::uint64_t generation) {
  const ResidentLaunch launch{ResidentGrid::messages, generation};
  if (blockIdx.x == 0 && threadIdx.x == 0) say_launched(plan, launch, first_epoch);
  run_resident_epochs(plan, first_epoch, [&](std::uint64_t epoch) {
    return resident_pack_step(ThreadBlockGroup{}, plan, blockIdx.x, launch, epoch);
  });
}

__global__ void __launch_bounds__(kMaxBlockThreads) resident_unpack_kernel(ExchangePlan plan, std::uint64_t first_epoch, std::uint64_t generation) {
  const ResidentLaunch launch{ResidentGrid::messages, generation};
  run_resident_epochs(plan, first_epoch, [&](std::uint64_t epoch) {
    return resident_unpack_step(ThreadBlockGroup{}, plan, blockIdx.x, launch, epoch);
  });
}

template <LinesCode Lines>
__global__ void __launch_bounds__(kMaxBlockThreads) piece_grid_kernel(ExchangePlan plan, std::uint64_t epoch) {
  piece_grid_exchange<Lines>(ThreadBlockGroup{}, plan, blockIdx.x, gridDim.x, epoch);
}

template <LinesCode Lines>
__global__ void __launch_bounds__(kMaxBlockThreads) resident_piece_grid_kernel(ExchangePlan plan, std::uint64_t first_epoch, std::uint64_t generation) {
  const ResidentLaunch launch{ResidentGrid::pieces, generation};
  if (blockIdx.x == 0 && threadIdx.x == 0) say_launched(plan, launch, first_epoch);
  run_resident_epochs(plan, first_epoch, [&](std::uint64_t epoch) {
    return resident_piece_grid_step<Lines>(ThreadBlockGroup{}, plan, blockIdx.x, gridDim.x,
                                           launch, epoch);
  });
}

// The build of each piece-moving kernel that `plan` needs (in_lines_build).
auto stacked_kernel_for(const ExchangePlan& plan) {
  return in_lines_build(plan, [](auto build) { return stacked_kernel<decltype(build)::value>; });
}
auto piece_grid_kernel_for(const ExchangePlan& plan) {
  return in_lines_build(plan,
                        [](auto build) { return piece_grid_kernel<decltype(build)::value>; });
}
auto resident_piece_grid_kernel_for(const ExchangePlan& plan) {
  return in_lines_build(
      plan, [](auto build) { return resident_piece_grid_kernel<decltype(build)::value>; });
}

void check_launch(KernelOp op) {
  const cudaError_t status = cudaGetLastError();
  if (status != cudaSuccess) {
    throw KernelError("launch of " + std::string(to_string(op)) + " failed: " +
                      cudaGetErrorString(status));
  }
}

int blocks_per_multiprocessor(const void* kernel, int threads) {
  int blocks = 0;
  HF_GPU_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, threads, 0));
  return blocks;
}

template <class Kernel>
const void* kernel_address(Kernel kernel) {
  return reinterpret_cast<const void*>(kernel);
}

// CUDA loads kernels lazily (CUDA_MODULE_LOADING=LAZY, the default), and loading one may wait
// for every kernel running in the context. Resident kernels never end, so every kernel this
// library launches is loaded before the first runner launches anything: a kernel left out of
// this list hangs its first launch beside another Exchange's resident kernels until their
// deadline (tests/kernels/kernels_loaded_test.py checks the list).
void load_every_kernel() {
  static const bool loaded = [] {
    for (const void* kernel :
         {kernel_address(fused_pack_kernel), kernel_address(fused_unpack_kernel),
          kernel_address(pack_kernel), kernel_address(unpack_kernel),
          kernel_address(notify_pack_kernel), kernel_address(notify_unpack_kernel),
          kernel_address(stacked_kernel<LinesCode::absent>),
          kernel_address(stacked_kernel<LinesCode::present>), kernel_address(resident_pack_kernel),
          kernel_address(resident_unpack_kernel),
          kernel_address(piece_grid_kernel<LinesCode::absent>),
          kernel_address(piece_grid_kernel<LinesCode::present>),
          kernel_address(resident_piece_grid_kernel<LinesCode::absent>),
          kernel_address(resident_piece_grid_kernel<LinesCode::present>)}) {
      cudaFuncAttributes attributes{};
      HF_GPU_CHECK(cudaFuncGetAttributes(&attributes, kernel));
    }
    return true;
  }();
  (void)loaded;
}

// Blocks of `threads` threads of the stream kernels' pack and unpack grids (resident's or
// stream_notify's) that one multiprocessor keeps resident at once: the fewer of the two.
int stream_blocks_per_multiprocessor(bool resident, int threads) {
  return std::min(blocks_per_multiprocessor(resident ? kernel_address(resident_pack_kernel)
                                                     : kernel_address(notify_pack_kernel),
                                            threads),
                  blocks_per_multiprocessor(resident ? kernel_address(resident_unpack_kernel)
                                                     : kernel_address(notify_unpack_kernel),
                                            threads));
}

class GpuKernelRunner final : public KernelRunner {
 public:
  GpuKernelRunner(const ExchangePlan& plan, const LaunchSettings& settings, int gpu_sharers)
      : plan_(plan), settings_(settings), sharers_(std::max(gpu_sharers, 1)) {
    load_every_kernel();
    for (int threads : {settings.fused_threads, settings.message_threads, settings.stacked_threads,
                        settings.node_threads}) {
      if (threads < 32 || threads > 1024 || threads % 32 != 0) {
        throw KernelError("threads per block must be a multiple of 32 in [32, 1024] (got " +
                          std::to_string(threads) + ")");
      }
    }
    HF_GPU_CHECK(cudaGetDevice(&device_));
    HF_GPU_CHECK(cudaDeviceGetAttribute(&multiprocessors_, cudaDevAttrMultiProcessorCount, device_));
    int least = 0;
    int greatest = 0;
    HF_GPU_CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
    // Both lanes get the highest priority: the exchange's kernels are the communication path;
    // a user's compute kernels on default-priority streams yield to them.
    for (cudaStream_t& stream : streams_) {
      HF_GPU_CHECK(cudaStreamCreateWithPriority(&stream, cudaStreamNonBlocking, greatest));
    }
    if (settings.node_blocks < 0 || settings.node_piece_bytes < 8) {
      throw KernelError("node blocks must be 0 (sized by pieces) or more, and a piece at least 8 "
                        "bytes (got " + std::to_string(settings.node_blocks) + " and " +
                        std::to_string(settings.node_piece_bytes) + ")");
    }
    std::int64_t largest = 0;
    for (std::uint32_t m = 0; m < plan.send_count; ++m) {
      largest = std::max(largest, fused_threads_for(host_layout(plan_.sends, m)));
    }
    for (std::uint32_t r = 0; r < plan.recv_count; ++r) {
      largest = std::max(largest, fused_threads_for(host_layout(plan_.recvs, r)));
    }
    // The fused kernels give each message enough blocks for a thread per 16-byte chunk (per
    // element where the shared mover moves it): fused_threads_for.
    const std::int64_t blocks = (largest + settings.fused_threads - 1) / settings.fused_threads;
    fused_blocks_ = static_cast<int>(std::clamp<std::int64_t>(blocks, 1, 4096));
  }

  ~GpuKernelRunner() override {
    for (cudaStream_t stream : streams_) (void)cudaStreamSynchronize(stream);
    for (auto& [op, graph] : graphs_) {
      (void)cudaGraphExecDestroy(graph.exec);
      (void)cudaGraphDestroy(graph.graph);
    }
    for (cudaStream_t stream : streams_) (void)cudaStreamDestroy(stream);
  }

  void launch(KernelOp op, std::uint64_t epoch) override {
    cudaStream_t stream = streams_[static_cast<int>(lane_of(op))];
    const dim3 message_block(static_cast<unsigned>(settings_.message_threads));
    switch (op) {
      case KernelOp::fused_pack:
        if (plan_.send_count == 0) return;
        fused_pack_kernel<<<dim3(static_cast<unsigned>(fused_blocks_), plan_.send_count),
                            threads_of(op), 0, stream>>>(plan_);
        break;
      case KernelOp::fused_unpack:
        if (plan_.recv_count == 0) return;
        fused_unpack_kernel<<<dim3(static_cast<unsigned>(fused_blocks_), plan_.recv_count),
                              threads_of(op), 0, stream>>>(plan_);
        break;
      case KernelOp::per_message_pack:
        if (plan_.send_count == 0) return;
        pack_kernel<<<dim3(1, plan_.send_count), threads_of(op), 0, stream>>>(plan_);
        break;
      case KernelOp::per_message_unpack:
        if (plan_.recv_count == 0) return;
        unpack_kernel<<<dim3(1, plan_.recv_count), threads_of(op), 0, stream>>>(plan_);
        break;
      case KernelOp::piece_grid:
        require_stream_residency(StreamKernels::notify);
        if (node_blocks() > 0) {
          piece_grid_kernel_for(plan_)<<<node_blocks(), node_threads(), 0, stream>>>(plan_, epoch);
        }
        break;
      case KernelOp::resident_piece_grid:
      case KernelOp::resident_pack:
      case KernelOp::resident_unpack:
        launch_resident(op, epoch, 1);
        return;
      case KernelOp::notify_pack:
        require_stream_residency(StreamKernels::notify);
        if (plan_.send_count > 0) {
          notify_pack_kernel<<<pack_blocks(plan_), message_block, 0, stream>>>(plan_, epoch);
        }
        break;
      case KernelOp::notify_unpack:
        require_stream_residency(StreamKernels::notify);
        if (plan_.recv_count > 0) {
          notify_unpack_kernel<<<unpack_blocks(plan_), message_block, 0, stream>>>(plan_, epoch);
        }
        break;
      case KernelOp::stacked: {
        const int blocks = stacked_blocks();
        void* arguments[] = {&plan_, &epoch};
        HF_GPU_CHECK(cudaLaunchCooperativeKernel(kernel_address(stacked_kernel_for(plan_)),
                                                 dim3(static_cast<unsigned>(blocks)),
                                                 dim3(static_cast<unsigned>(settings_.stacked_threads)),
                                                 arguments, 0, stream));
        break;
      }
    }
    check_launch(op);
  }

  void launch_resident(KernelOp op, std::uint64_t first_epoch, std::uint64_t generation) override {
    require_stream_residency(StreamKernels::resident);
    cudaStream_t stream = streams_[static_cast<int>(lane_of(op))];
    const dim3 message_block(static_cast<unsigned>(settings_.message_threads));
    switch (op) {
      case KernelOp::resident_pack:
        if (plan_.send_count == 0) return;
        resident_pack_kernel<<<pack_blocks(plan_), message_block, 0, stream>>>(plan_, first_epoch,
                                                                              generation);
        break;
      case KernelOp::resident_unpack:
        if (plan_.recv_count == 0) return;
        resident_unpack_kernel<<<unpack_blocks(plan_), message_block, 0, stream>>>(
            plan_, first_epoch, generation);
        break;
      case KernelOp::resident_piece_grid:
        if (node_blocks() == 0) return;
        resident_piece_grid_kernel_for(plan_)<<<node_blocks(), node_threads(), 0, stream>>>(
            plan_, first_epoch, generation);
        break;
      default:
        throw KernelError("launch_resident() of " + std::string(to_string(op)) +
                          ", which is not a resident kernel");
    }
    check_launch(op);
  }

  void launch_graph(KernelOp op) override {
    if (op != KernelOp::fused_pack && op != KernelOp::fused_unpack &&
        op != KernelOp::per_message_pack && op != KernelOp::per_message_unpack) {
      throw KernelError("only fused and per-message kernels are captured as graphs (asked for " +
                        std::string(to_string(op)) + ")");
    }
    cudaStream_t stream = streams_[static_cast<int>(lane_of(op))];
    auto found = graphs_.find(op);
    if (found == graphs_.end()) found = graphs_.emplace(op, capture(op, stream)).first;
    HF_GPU_CHECK(cudaGraphLaunch(found->second.exec, stream));
  }

  bool lane_idle(Lane lane) override {
    const cudaError_t status = cudaStreamQuery(streams_[static_cast<int>(lane)]);
    if (status == cudaSuccess) return true;
    if (status == cudaErrorNotReady) return false;
    throw KernelError(std::string("kernel fault on the ") +
                      std::string(to_string(lane)) + " stream: " +
                      cudaGetErrorString(status));
  }

  void* gpu_stream(Lane lane) const override { return streams_[static_cast<int>(lane)]; }

  void synchronize(Lane lane) override {
    const cudaError_t status = cudaStreamSynchronize(streams_[static_cast<int>(lane)]);
    if (status != cudaSuccess) {
      throw KernelError(std::string("kernel fault on the ") +
                        std::string(to_string(lane)) + " stream: " +
                        cudaGetErrorString(status));
    }
  }

  std::string launch_shape(KernelOp op) const override {
    std::int64_t blocks = 0;
    switch (op) {
      case KernelOp::fused_pack:
      case KernelOp::per_message_pack:
        blocks = std::int64_t{blocks_per_message(op)} * plan_.send_count;
        break;
      case KernelOp::fused_unpack:
      case KernelOp::per_message_unpack:
        blocks = std::int64_t{blocks_per_message(op)} * plan_.recv_count;
        break;
      case KernelOp::notify_pack:
      case KernelOp::resident_pack:
        blocks = pack_blocks(plan_);
        break;
      case KernelOp::notify_unpack:
      case KernelOp::resident_unpack:
        blocks = unpack_blocks(plan_);
        break;
      case KernelOp::stacked:
        blocks = stacked_blocks();
        break;
      case KernelOp::piece_grid:
      case KernelOp::resident_piece_grid:
        blocks = node_blocks();
        break;
    }
    return std::to_string(blocks) + " blocks x " + std::to_string(threads_of(op)) + " threads";
  }

  void check_co_residency(KernelOp op) override {
    switch (op) {
      case KernelOp::notify_pack:
      case KernelOp::notify_unpack:
      case KernelOp::piece_grid:
        require_stream_residency(StreamKernels::notify);
        break;
      case KernelOp::resident_pack:
      case KernelOp::resident_unpack:
      case KernelOp::resident_piece_grid:
        require_stream_residency(StreamKernels::resident);
        break;
      case KernelOp::stacked:
        (void)stacked_blocks();
        break;
      default:
        break;
    }
  }

 private:
  // The blocks a cooperative stacked launch uses, resolved at the first need.
  int stacked_blocks() const {
    if (stacked_blocks_ == 0) stacked_blocks_ = resolve_stacked_blocks();
    return stacked_blocks_;
  }

  struct Graph {
    cudaGraph_t graph = nullptr;
    cudaGraphExec_t exec = nullptr;
  };

  // Layouts live in device memory; the sizes the launch shape needs are read once per message.
  static MessageLayout host_layout(const MessageLayout* device_layouts, std::uint32_t index) {
    MessageLayout layout{};
    HF_GPU_CHECK(cudaMemcpy(&layout, device_layouts + index, sizeof layout, cudaMemcpyDeviceToHost));
    return layout;
  }

  int node_threads() const { return settings_.node_threads; }

  // The piece grid's blocks (resolved by require_stream_residency); 0 without pieces.
  int node_blocks() const { return node_blocks_; }

  int threads_of(KernelOp op) const {
    if (op == KernelOp::piece_grid || op == KernelOp::resident_piece_grid) return node_threads();
    if (op == KernelOp::fused_pack || op == KernelOp::fused_unpack) return settings_.fused_threads;
    if (op == KernelOp::stacked) return settings_.stacked_threads;
    return settings_.message_threads;
  }

  int blocks_per_message(KernelOp op) const {
    return op == KernelOp::fused_pack || op == KernelOp::fused_unpack ? fused_blocks_ : 1;
  }

  enum class StreamKernels { notify, resident };

  // The pack and unpack kernels of one exchange and the piece grid run side by side and wait on
  // each other through MPI and the peers: every block of all three must be resident at once.
  // The piece grid takes one block per piece (or LaunchSettings::node_blocks) of the room the
  // per-message kernels leave (resident kernels, half of it unless node_blocks is set).
  void require_stream_residency(StreamKernels kernels) {
    if (stream_residency_checked_) return;
    const bool resident = kernels == StreamKernels::resident;
    const std::string strategy = resident ? "resident" : "stream_notify";
    const int per_sm = stream_blocks_per_multiprocessor(resident, settings_.message_threads);
    const std::int64_t fit = std::int64_t{per_sm} * multiprocessors_ / sharers();
    const std::int64_t asked =
        plan_.message_blocks ? std::int64_t{pack_blocks(plan_)} + unpack_blocks(plan_) : 0;
    const std::string message_blocks =
        std::to_string(asked) + " blocks of " + std::to_string(settings_.message_threads) +
        " threads (" + std::to_string(pack_blocks(plan_)) + " pack (" +
        std::to_string(plan_.long_send_team) + " per long send) + " +
        std::to_string(unpack_blocks(plan_)) + " unpack, " +
        std::to_string(plan_.long_recv_team) + " per long receive)";
    if (asked > fit) {
      throw CoResidencyError(strategy + " needs " + message_blocks + " resident at once; GPU " +
                             std::to_string(device_) + " fits " + std::to_string(fit) + " (" +
                             std::to_string(per_sm) + " per SM x " +
                             std::to_string(multiprocessors_) + " SMs" + shared_text() + ")");
    }
    const std::uint32_t pieces =
        std::max(plan_.pieces.send_pieces, plan_.pieces.recv_pieces);
    if (pieces > 0) {
      const int node_per_sm = blocks_per_multiprocessor(
          resident ? kernel_address(resident_piece_grid_kernel_for(plan_))
                   : kernel_address(piece_grid_kernel_for(plan_)),
          settings_.node_threads);
      const std::int64_t node_fit = std::int64_t{node_per_sm} * multiprocessors_ / sharers();
      // What the per-message kernels leave, in node blocks. Resident kernels stay on the GPU
      // between exchanges, while the caller's kernels run, some of them (in stream order) before
      // the start the grid waits for: a grid on every free block slot would leave those kernels
      // none, and the start would never come. So by default a resident piece grid takes half
      // the room; a count the caller sets (node_blocks) may take all of it.
      const std::int64_t whole_room = fit == 0 ? 0 : node_fit * (fit - asked) / fit;
      const std::int64_t room =
          settings_.node_blocks > 0 || !resident ? whole_room : whole_room / 2;
      const std::int64_t wanted = settings_.node_blocks > 0 ? settings_.node_blocks : pieces;
      if (room < 1 || (settings_.node_blocks > 0 && wanted > room)) {
        throw CoResidencyError(strategy + "'s piece grid needs " +
                               std::to_string(settings_.node_blocks > 0 ? wanted : 1) +
                               " blocks of " + std::to_string(settings_.node_threads) +
                               " threads beside " + message_blocks + "; GPU " +
                               std::to_string(device_) + " has room for " +
                               std::to_string(room) + " (" + std::to_string(node_per_sm) +
                               " per SM x " + std::to_string(multiprocessors_) + " SMs" +
                               shared_text() + ")");
      }
      node_blocks_ = static_cast<int>(std::min(wanted, room));
    }
    stream_residency_checked_ = true;
  }

  int resolve_stacked_blocks() const {
    int cooperative = 0;
    HF_GPU_CHECK(cudaDeviceGetAttribute(&cooperative, cudaDevAttrCooperativeLaunch, device_));
    if (!cooperative) {
      throw CoResidencyError("stacked_notify needs cooperative launches; GPU " +
                             std::to_string(device_) + " does not support them");
    }
    const int per_sm = blocks_per_multiprocessor(kernel_address(stacked_kernel_for(plan_)),
                                                 settings_.stacked_threads);
    const int fit = per_sm * multiprocessors_ / sharers();
    const int asked = settings_.stacked_blocks > 0 ? settings_.stacked_blocks : fit;
    if (asked > fit || fit == 0) {
      throw CoResidencyError("stacked_notify asked for " + std::to_string(asked) + " blocks of " +
                             std::to_string(settings_.stacked_threads) +
                             " threads; GPU " + std::to_string(device_) + " fits " +
                             std::to_string(fit) + " at once (" + std::to_string(per_sm) +
                             " per SM x " + std::to_string(multiprocessors_) + " SMs" +
                             shared_text() + ")");
    }
    return asked;
  }

  int sharers() const { return sharers_; }

  std::string shared_text() const {
    return sharers() > 1 ? ", shared by " + std::to_string(sharers()) + " processes" : "";
  }

  Graph capture(KernelOp op, cudaStream_t stream) {
    Graph graph;
    HF_GPU_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
    launch(op, 0);
    HF_GPU_CHECK(cudaStreamEndCapture(stream, &graph.graph));
#if defined(HALOFLAG_HAVE_HIP)
    HF_GPU_CHECK(hipGraphInstantiate(&graph.exec, graph.graph, nullptr, nullptr, 0));
#else
    HF_GPU_CHECK(cudaGraphInstantiate(&graph.exec, graph.graph, 0));
#endif
    return graph;
  }

  ExchangePlan plan_;
  LaunchSettings settings_;
  int sharers_ = 1;  // processes whose exchange kernels share this GPU
  int device_ = 0;
  int multiprocessors_ = 0;
  int fused_blocks_ = 1;
  mutable int stacked_blocks_ = 0;
  int node_blocks_ = 0;
  bool stream_residency_checked_ = false;
  cudaStream_t streams_[kLaneCount] = {nullptr, nullptr, nullptr};
  std::map<KernelOp, Graph> graphs_;
};

}  // namespace

std::unique_ptr<KernelRunner> make_gpu_kernel_runner(const ExchangePlan& plan,
                                                     const LaunchSettings& settings,
                                                     int gpu_sharers) {
  return std::make_unique<GpuKernelRunner>(plan, settings, gpu_sharers);
}

std::int64_t gpu_message_block_capacity(bool resident, const LaunchSettings& settings,
                                        int gpu_sharers) {
  load_every_kernel();
  int device = 0;
  int multiprocessors = 0;
  HF_GPU_CHECK(cudaGetDevice(&device));
  HF_GPU_CHECK(cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device));
  const int per_sm = stream_blocks_per_multiprocessor(resident, settings.message_threads);
  return std::int64_t{per_sm} * multiprocessors / std::max(gpu_sharers, 1);
}

}  // namespace haloflag::kernels::detail
