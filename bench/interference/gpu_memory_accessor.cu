// The GPU accessor: the access program as a kernel per round on a private non-blocking stream,
// one block of the most threads a block can have (stream form) or a cooperative grid of every
// block that can be resident (stacked form), with the co-residency check of docs/design.md
// rule 6. CUDA and HIP alike through gpu_runtime.hpp.
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "haloflag/bench/usage_error.hpp"
#include "haloflag/kernels/gpu_groups.hpp"
#include "haloflag/notify/gpu_runtime.hpp"
#include "memory_accessor.hpp"

namespace haloflag::bench::interference {

namespace {

// The program's groups are the engine's: one thread block (stream form), the whole cooperative
// grid (stacked form).
__global__ void stream_access_kernel(AccessPlan plan) {
  access_buffers(kernels::ThreadBlockGroup{}, plan);
}
__global__ void stacked_access_kernel(AccessPlan plan) {
  access_buffers(kernels::CooperativeGridGroup{}, plan);
}

template <class Kernel>
const void* kernel_address(Kernel kernel) {
  return reinterpret_cast<const void*>(kernel);
}

int max_block_threads(const void* kernel) {
#if defined(HALOFLAG_HAVE_HIP)
  hipFuncAttributes attributes{};
  HF_GPU_CHECK(hipFuncGetAttributes(&attributes, kernel));
#else
  cudaFuncAttributes attributes{};
  HF_GPU_CHECK(cudaFuncGetAttributes(&attributes, kernel));
#endif
  return attributes.maxThreadsPerBlock;
}

// Threads per block: as asked (checked against the kernel's limit) or the limit itself.
int block_threads(const void* kernel, int asked, const char* option, int device) {
  const int limit = max_block_threads(kernel);
  if (asked > limit) {
    throw UsageError(std::string(option) + " " + std::to_string(asked) + ": a block of this "
                     "kernel holds at most " + std::to_string(limit) + " threads on GPU " +
                     std::to_string(device));
  }
  return asked > 0 ? asked : limit;
}

AccessShape stream_shape(const AccessorSettings& settings, int device) {
  AccessShape shape;
  shape.threads =
      block_threads(kernel_address(stream_access_kernel), settings.stream_threads,
                    "--stream-threads", device);
  shape.description = "1 block x " + std::to_string(shape.threads) + " threads";
  return shape;
}

// A cooperative grid waits at its barriers for every block: all must be resident at once, so
// the size is checked against occupancy before any launch (docs/design.md, rule 6).
AccessShape stacked_shape(const AccessorSettings& settings, const GpuFacts& gpu) {
  int cooperative = 0;
  HF_GPU_CHECK(cudaDeviceGetAttribute(&cooperative, cudaDevAttrCooperativeLaunch, gpu.index));
  if (cooperative == 0) {
    throw UsageError("stacked access needs cooperative launches; GPU " +
                     std::to_string(gpu.index) + " (" + gpu.name + ") does not support them "
                     "(run with --access stream)");
  }
  AccessShape shape;
  shape.threads = block_threads(kernel_address(stacked_access_kernel), settings.stacked_threads,
                                "--stacked-threads", gpu.index);
  HF_GPU_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      &shape.blocks_per_multiprocessor, kernel_address(stacked_access_kernel), shape.threads, 0));
  shape.multiprocessors = gpu.multiprocessors;
  const int fit = shape.blocks_per_multiprocessor * shape.multiprocessors;
  shape.blocks = settings.stacked_blocks > 0 ? settings.stacked_blocks : fit;
  if (fit == 0 || shape.blocks > fit) {
    throw UsageError("stacked access asked for " + std::to_string(shape.blocks) + " blocks of " +
                     std::to_string(shape.threads) + " threads, but GPU " +
                     std::to_string(gpu.index) + " holds only " + std::to_string(fit) +
                     " at once (" + std::to_string(shape.blocks_per_multiprocessor) +
                     " per SM x " + std::to_string(shape.multiprocessors) +
                     " SMs); a cooperative grid must be resident at once, so it is not launched "
                     "(ask for --stacked-blocks " + std::to_string(fit) + " or fewer)");
  }
  shape.description = std::to_string(shape.blocks) + " blocks x " +
                      std::to_string(shape.threads) + " threads, cooperative (" +
                      std::to_string(shape.blocks_per_multiprocessor) + " per SM x " +
                      std::to_string(shape.multiprocessors) + " SMs)";
  return shape;
}

class GpuMemoryAccessor final : public MemoryAccessor {
 public:
  GpuMemoryAccessor(int index, const AccessorSettings& settings,
                    const std::vector<AccessForm>& forms)
      : facts_(collect_gpu_facts(index)) {
    for (const AccessForm form : forms) {
      if (form == AccessForm::stream) stream_shape_ = stream_shape(settings, index);
      if (form == AccessForm::stacked) stacked_shape_ = stacked_shape(settings, facts_);
    }
    HF_GPU_CHECK(cudaStreamCreateWithFlags(&gpu_stream_, cudaStreamNonBlocking));
  }
  ~GpuMemoryAccessor() override {
    (void)cudaStreamSynchronize(gpu_stream_);
    (void)cudaStreamDestroy(gpu_stream_);
  }
  GpuMemoryAccessor(const GpuMemoryAccessor&) = delete;
  GpuMemoryAccessor& operator=(const GpuMemoryAccessor&) = delete;

  std::string describe() const override { return facts_.describe(); }
  std::optional<GpuFacts> gpu_facts() const override { return facts_; }
  const AccessShape& shape(AccessForm form) const override {
    return form == AccessForm::stream ? stream_shape_ : stacked_shape_;
  }

  void start(AccessForm form, const AccessPlan& plan) override {
    if (form == AccessForm::stream) {
      stream_access_kernel<<<1, stream_shape_.threads, 0, gpu_stream_>>>(plan);
      HF_GPU_CHECK(cudaGetLastError());
      return;
    }
    AccessPlan argument = plan;  // the launch copies its arguments before it returns
    void* arguments[] = {&argument};
    HF_GPU_CHECK(cudaLaunchCooperativeKernel(kernel_address(stacked_access_kernel),
                                             dim3(static_cast<unsigned>(stacked_shape_.blocks)),
                                             dim3(static_cast<unsigned>(stacked_shape_.threads)),
                                             arguments, 0, gpu_stream_));
  }

  // Polled rather than a blocking synchronise, so that this wait has its own deadline too.
  void finish(std::chrono::nanoseconds deadline) override {
    const auto give_up = std::chrono::steady_clock::now() + deadline;
    for (;;) {
      const cudaError_t status = cudaStreamQuery(gpu_stream_);
      if (status != cudaErrorNotReady) {
        HF_GPU_CHECK(status);
        return;
      }
      if (std::chrono::steady_clock::now() > give_up) {
        throw notify::NotifyError("the access kernel on " + describe() + " did not end within " +
                                  std::to_string(std::chrono::duration<double>(deadline).count()) +
                                  " s");
      }
      std::this_thread::yield();
    }
  }

 private:
  GpuFacts facts_;
  AccessShape stream_shape_;
  AccessShape stacked_shape_;
  cudaStream_t gpu_stream_ = nullptr;
};

}  // namespace

std::unique_ptr<MemoryAccessor> make_gpu_accessor(int index, const AccessorSettings& settings,
                                                  const std::vector<AccessForm>& forms) {
  return std::make_unique<GpuMemoryAccessor>(index, settings, forms);
}

}  // namespace haloflag::bench::interference
