// The GPU device side: each program is one thread of a kernel on a private non-blocking stream;
// launch + synchronise is timed with an empty kernel and with a one-node graph of it. CUDA and
// HIP alike through gpu_runtime.hpp.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "device_side.hpp"
#include "haloflag/bench/gpu_build.hpp"
#include "haloflag/notify/clock.hpp"
#include "haloflag/notify/gpu_device.hpp"
#include "haloflag/notify/gpu_handles.hpp"
#include "haloflag/notify/gpu_runtime.hpp"

namespace haloflag::bench {

namespace {

__global__ void responder_kernel(ResponderPlan plan) { answer_epochs(plan); }
__global__ void read_write_kernel(ReadWritePlan plan) { time_read_write(plan); }
__global__ void clock_step_kernel(ClockStepPlan plan) { measure_clock_step(plan); }
__global__ void empty_kernel() {}

// Makes GPU `index` current for this thread (before any stream or mapping exists) and describes it.
GpuFacts make_current(int index) {
  notify::set_current_gpu(index);
  return collect_gpu_facts(index);
}

using notify::GpuStream;

// A graph holding one node, the empty kernel, captured on `stream` and instantiated.
class EmptyKernelGraph {
 public:
  explicit EmptyKernelGraph(cudaStream_t stream) {
    HF_GPU_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
    empty_kernel<<<1, 1, 0, stream>>>();
    const cudaError_t launched = cudaGetLastError();
    HF_GPU_CHECK(cudaStreamEndCapture(stream, &graph_));
    HF_GPU_CHECK(launched);
#if defined(HALOFLAG_HAVE_HIP)
    HF_GPU_CHECK(hipGraphInstantiate(&exec_, graph_, nullptr, nullptr, 0));
#else
    HF_GPU_CHECK(cudaGraphInstantiate(&exec_, graph_, 0));
#endif
  }
  ~EmptyKernelGraph() {
    if (exec_ != nullptr) (void)cudaGraphExecDestroy(exec_);
    if (graph_ != nullptr) (void)cudaGraphDestroy(graph_);
  }
  EmptyKernelGraph(const EmptyKernelGraph&) = delete;
  EmptyKernelGraph& operator=(const EmptyKernelGraph&) = delete;

  cudaGraphExec_t exec() const { return exec_; }

 private:
  cudaGraph_t graph_ = nullptr;
  cudaGraphExec_t exec_ = nullptr;
};

class GpuDeviceSide final : public DeviceSide {
 public:
  explicit GpuDeviceSide(int index) : facts_(make_current(index)) {}

  std::string describe() const override { return facts_.describe(); }
  std::optional<GpuFacts> gpu_facts() const override { return facts_; }
  std::string clock_name() const override { return kGpuClockName; }

  void start(const ResponderPlan& plan) override {
    responder_kernel<<<1, 1, 0, stream_.get()>>>(plan);
    HF_GPU_CHECK(cudaGetLastError());
  }
  void start(const ReadWritePlan& plan) override {
    read_write_kernel<<<1, 1, 0, stream_.get()>>>(plan);
    HF_GPU_CHECK(cudaGetLastError());
  }
  void start(const ClockStepPlan& plan) override {
    clock_step_kernel<<<1, 1, 0, stream_.get()>>>(plan);
    HF_GPU_CHECK(cudaGetLastError());
  }
  void finish() override { HF_GPU_CHECK(cudaStreamSynchronize(stream_.get())); }

  std::optional<std::string> launch_unavailable_reason() const override { return std::nullopt; }

  // Launch errors are checked once after the loop (a failed launch leaves cudaGetLastError set)
  // so that the check's own cost stays out of the samples; each synchronise is checked.
  std::vector<double> time_empty_kernel_launches(std::uint32_t count) override {
    std::vector<double> samples(count);
    for (double& sample : samples) {
      const std::uint64_t launched_at = notify::clock_ns();
      empty_kernel<<<1, 1, 0, stream_.get()>>>();
      HF_GPU_CHECK(cudaStreamSynchronize(stream_.get()));
      sample = static_cast<double>(notify::clock_ns() - launched_at);
    }
    HF_GPU_CHECK(cudaGetLastError());
    return samples;
  }

  std::vector<double> time_graph_launches(std::uint32_t count) override {
    const EmptyKernelGraph graph(stream_.get());
    std::vector<double> samples(count);
    for (double& sample : samples) {
      const std::uint64_t launched_at = notify::clock_ns();
      HF_GPU_CHECK(cudaGraphLaunch(graph.exec(), stream_.get()));
      HF_GPU_CHECK(cudaStreamSynchronize(stream_.get()));
      sample = static_cast<double>(notify::clock_ns() - launched_at);
    }
    return samples;
  }

 private:
  GpuFacts facts_;  // first: the GPU is made current before the stream is created
  GpuStream stream_;
};

}  // namespace

std::unique_ptr<DeviceSide> make_gpu_device_side(int index) {
  return std::make_unique<GpuDeviceSide>(index);
}

}  // namespace haloflag::bench
