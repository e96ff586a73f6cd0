// The GPU half of whole_exchange_kernel.hpp: a cooperative grid, one block per multiprocessor
// divided among the ranks that share the GPU, so that every rank's grid is resident at once.
#include <cstddef>
#include <memory>
#include <stdexcept>
#include <string>

#include "haloflag/kernels/embedded_api.hpp"
#include "haloflag/kernels/embedded_exchange.hpp"
#include "haloflag/kernels/gpu_groups.hpp"
#include "haloflag/notify/gpu_runtime.hpp"
#include "whole_exchange_kernel.hpp"

namespace haloflag::test {
namespace {

constexpr int kThreads = 256;
// Two ranks may share a GPU under MPS: each grid takes at most half of it.
constexpr int kSharers = 2;

// completed[0] counts the blocks that completed every exchange.
__global__ void __launch_bounds__(kThreads)
    whole_exchange_kernel(kernels::DevicePlan plan, std::uint64_t first, std::uint32_t count,
                          unsigned* completed) {
  const kernels::ThreadBlockGroup block;
  const kernels::CooperativeGridGroup grid;
  for (std::uint32_t i = 0; i < count; ++i) {
    const std::uint64_t epoch = first + i;
    grid.sync();
    kernels::BlockStatus status =
        kernels::embedded_exchange_start(block, plan, blockIdx.x, gridDim.x, epoch);
    if (status == kernels::BlockStatus::ok) {
      status = kernels::embedded_exchange_finish(block, plan, blockIdx.x, gridDim.x, epoch);
    }
    if (kernels::embedded_barrier(grid, plan, epoch, status) != kernels::BlockStatus::ok) return;
  }
  if (threadIdx.x == 0) atomicAdd(completed, 1u);
}

class GpuGrid final : public WholeExchangeKernel::Runner {
 public:
  GpuGrid(const kernels::DevicePlan& plan, std::uint64_t first, std::uint32_t count) {
    int device = 0;
    int sms = 0;
    int per_sm = 0;
    HF_GPU_CHECK(cudaGetDevice(&device));
    HF_GPU_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    HF_GPU_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &per_sm, reinterpret_cast<const void*>(whole_exchange_kernel), kThreads, 0));
    blocks_ = per_sm * sms / kSharers;
    if (blocks_ < 1) {
      throw std::runtime_error("the whole-exchange test kernel does not fit on GPU " +
                               std::to_string(device));
    }
    HF_GPU_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
    HF_GPU_CHECK(cudaMalloc(reinterpret_cast<void**>(&completed_), sizeof(unsigned)));
    HF_GPU_CHECK(cudaMemsetAsync(completed_, 0, sizeof(unsigned), stream_));
    kernels::DevicePlan plan_argument = plan;
    void* arguments[] = {&plan_argument, &first, &count, &completed_};
    HF_GPU_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(whole_exchange_kernel),
                                             dim3(static_cast<unsigned>(blocks_)),
                                             dim3(kThreads), arguments, 0, stream_));
  }
  ~GpuGrid() override {
    if (stream_ != nullptr) (void)cudaStreamSynchronize(stream_);
    if (completed_ != nullptr) (void)cudaFree(completed_);
    if (stream_ != nullptr) (void)cudaStreamDestroy(stream_);
  }

  bool wait() override {
    unsigned completed = 0;
    HF_GPU_CHECK(cudaMemcpyAsync(&completed, completed_, sizeof completed,
                                 cudaMemcpyDeviceToHost, stream_));
    HF_GPU_CHECK(cudaStreamSynchronize(stream_));
    return completed == static_cast<unsigned>(blocks_);
  }

 private:
  cudaStream_t stream_ = nullptr;
  unsigned* completed_ = nullptr;
  int blocks_ = 0;
};

}  // namespace

namespace detail {
std::unique_ptr<WholeExchangeKernel::Runner> launch_gpu_whole_exchanges(
    const kernels::DevicePlan& plan, std::uint64_t first, std::uint32_t count) {
  return std::make_unique<GpuGrid>(plan, first, count);
}
}  // namespace detail

}  // namespace haloflag::test
