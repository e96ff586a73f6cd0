#include "embedded_test_kernel.hpp"

#include <cstddef>
#include <stdexcept>
#include <string>

#include "haloflag/kernels/embedded_api.hpp"
#include "haloflag/kernels/gpu_groups.hpp"
#include "haloflag/notify/gpu_runtime.hpp"

// The GPU groups meet the group contract the embedded API checks.
static_assert(haloflag::kernels::ExchangeGroup<haloflag::kernels::ThreadBlockGroup>);
static_assert(haloflag::kernels::ExchangeGroup<haloflag::kernels::CooperativeGridGroup>);

namespace haloflag::test {
namespace {

using kernels::BlockStatus;

constexpr int kMaxThreads = 1024;

__global__ void __launch_bounds__(kMaxThreads)
    embedded_user_kernel(kernels::DevicePlan exchange_plan, kernels::FieldSet even,
                         kernels::FieldSet odd, std::uint64_t first_epoch, std::uint32_t epochs,
                         EmbeddedBlockReport* reports) {
  const kernels::ThreadBlockGroup block;
  const std::uint32_t message = blockIdx.x;
  EmbeddedBlockReport& report = reports[blockIdx.x];
  BlockStatus status = BlockStatus::ok;
  std::uint32_t done = 0;
  for (std::uint32_t i = 0; i < epochs && status == BlockStatus::ok; ++i) {
    const std::uint64_t epoch = first_epoch + i;
    const kernels::DevicePlan plan = exchange_plan.with_fields(i % 2 == 0 ? even : odd);
    if (message < plan.send_count()) status = kernels::embedded_pack(block, plan, message, epoch);
    // A stencil would update its interior here, while the messages travel.
    if (status == BlockStatus::ok && message < plan.recv_count()) {
      status = kernels::embedded_unpack(block, plan, message, epoch);
    }
    if (status == BlockStatus::ok) done = i + 1;
  }
  const bool failed = kernels::embedded_failed(block, exchange_plan);
  if (block.thread() == 0) {
    report.epochs_done = done;
    report.status = static_cast<std::int32_t>(status);
    report.saw_failure = failed ? 1 : 0;
  }
}

}  // namespace

EmbeddedTestKernel::EmbeddedTestKernel(const kernels::DevicePlan& plan,
                                       const kernels::FieldSet& even, const kernels::FieldSet& odd,
                                       std::uint64_t first_epoch, std::uint32_t epochs,
                                       int threads) {
  blocks_ = static_cast<int>(plan.send_count() > plan.recv_count() ? plan.send_count()
                                                                     : plan.recv_count());
  if (blocks_ == 0) blocks_ = 1;
  int device = 0;
  int multiprocessors = 0;
  int per_sm = 0;
  HF_GPU_CHECK(cudaGetDevice(&device));
  HF_GPU_CHECK(cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device));
  HF_GPU_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      &per_sm, reinterpret_cast<const void*>(embedded_user_kernel), threads, 0));
  if (per_sm * multiprocessors < blocks_) {
    throw std::runtime_error("the embedded test kernel needs " + std::to_string(blocks_) +
                             " resident blocks of " + std::to_string(threads) + " threads; GPU " +
                             std::to_string(device) + " fits " +
                             std::to_string(per_sm * multiprocessors));
  }
  cudaStream_t stream = nullptr;
  HF_GPU_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  stream_ = stream;
  HF_GPU_CHECK(cudaMalloc(reinterpret_cast<void**>(&reports_),
                          sizeof(EmbeddedBlockReport) * static_cast<std::size_t>(blocks_)));
  HF_GPU_CHECK(cudaMemsetAsync(reports_, 0xff,
                               sizeof(EmbeddedBlockReport) * static_cast<std::size_t>(blocks_),
                               stream));
  embedded_user_kernel<<<static_cast<unsigned>(blocks_), static_cast<unsigned>(threads), 0,
                         stream>>>(plan, even, odd, first_epoch, epochs, reports_);
  HF_GPU_CHECK(cudaGetLastError());
}

std::vector<EmbeddedBlockReport> EmbeddedTestKernel::wait() {
  auto stream = static_cast<cudaStream_t>(stream_);
  HF_GPU_CHECK(cudaStreamSynchronize(stream));
  std::vector<EmbeddedBlockReport> reports(static_cast<std::size_t>(blocks_));
  HF_GPU_CHECK(cudaMemcpyAsync(reports.data(), reports_,
                               sizeof(EmbeddedBlockReport) * reports.size(),
                               cudaMemcpyDeviceToHost, stream));
  HF_GPU_CHECK(cudaStreamSynchronize(stream));
  return reports;
}

EmbeddedTestKernel::~EmbeddedTestKernel() {
  auto stream = static_cast<cudaStream_t>(stream_);
  if (stream != nullptr) (void)cudaStreamSynchronize(stream);
  if (reports_ != nullptr) (void)cudaFree(reports_);
  if (stream != nullptr) (void)cudaStreamDestroy(stream);
}

}  // namespace haloflag::test
