// CUDA and HIP alike through gpu_runtime.hpp.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "haloflag/bench/gpu_build.hpp"
#include "haloflag/kernels/device_memory.hpp"
#include "haloflag/notify/gpu_device.hpp"
#include "haloflag/notify/gpu_handles.hpp"
#include "haloflag/notify/gpu_runtime.hpp"
#include "peer_copy_timing.hpp"

namespace haloflag::bench {

namespace {

int select_gpu(int gpu) {
  HF_GPU_CHECK(cudaSetDevice(gpu));
  return gpu;
}

// Without peer access the runtime stages a peer copy through host memory, which would time PCIe
// and the host instead of the link between the GPUs.
void enable_peer_access(int from, int to) {
  if (!notify::enable_peer_access(from, to)) {
    throw std::invalid_argument("GPU " + std::to_string(from) + " cannot access the memory of " +
                                "GPU " + std::to_string(to) + " (no peer access between them)");
  }
}

// One GPU's part: the buffer it sends from, the one the other GPU's copy lands in, its stream and
// the events around its copy, all made while that GPU is current (members in this order).
struct Side {
  Side(int index, std::size_t bytes)
      : gpu(select_gpu(index)), source(kGpuBackend, bytes), destination(kGpuBackend, bytes) {}
  int gpu;
  kernels::DeviceMemory source;
  kernels::DeviceMemory destination;
  notify::GpuStream stream;
  notify::GpuEvent start;
  notify::GpuEvent end;
};

double elapsed_seconds(const notify::GpuEvent& from, const notify::GpuEvent& to) {
  float milliseconds = 0.0f;
  HF_GPU_CHECK(cudaEventElapsedTime(&milliseconds, from.get(), to.get()));
  return static_cast<double>(milliseconds) * 1e-3;
}

// Distinct per size and direction, so that a copy left over from another size or the other
// direction cannot pass the check.
std::vector<unsigned char> pattern(std::int64_t bytes, int direction) {
  std::vector<unsigned char> data(static_cast<std::size_t>(bytes));
  for (std::size_t i = 0; i < data.size(); ++i) {
    data[i] = static_cast<unsigned char>(
        (i * 131 + static_cast<std::size_t>(bytes) / 8 + static_cast<std::size_t>(direction) * 97) %
        251);
  }
  return data;
}

class PeerPair {
 public:
  PeerPair(int gpu_a, int gpu_b, std::int64_t largest)
      : a_(gpu_a, static_cast<std::size_t>(largest)),
        b_(gpu_b, static_cast<std::size_t>(largest)) {}

  // Both copies issued, then both streams waited for; the wall time of the whole, and in
  // *device_seconds the longer copy by its own stream's events.
  double sample(std::int64_t bytes, double* device_seconds) {
    const auto started = std::chrono::steady_clock::now();
    issue(a_, b_, bytes);
    issue(b_, a_, bytes);
    HF_GPU_CHECK(cudaStreamSynchronize(a_.stream.get()));
    HF_GPU_CHECK(cudaStreamSynchronize(b_.stream.get()));
    const auto ended = std::chrono::steady_clock::now();
    *device_seconds =
        std::max(elapsed_seconds(a_.start, a_.end), elapsed_seconds(b_.start, b_.end));
    return std::chrono::duration<double>(ended - started).count();
  }

  void check(std::int64_t bytes) {
    const std::size_t n = static_cast<std::size_t>(bytes);
    a_.source.copy_from_host(pattern(bytes, 0).data(), n);
    b_.source.copy_from_host(pattern(bytes, 1).data(), n);
    double unused = 0.0;
    sample(bytes, &unused);
    check_arrived(b_, pattern(bytes, 0), "GPU " + std::to_string(a_.gpu) + " -> GPU " +
                                             std::to_string(b_.gpu));
    check_arrived(a_, pattern(bytes, 1), "GPU " + std::to_string(b_.gpu) + " -> GPU " +
                                             std::to_string(a_.gpu));
  }

 private:
  static void issue(Side& from, Side& to, std::int64_t bytes) {
    select_gpu(from.gpu);
    HF_GPU_CHECK(cudaEventRecord(from.start.get(), from.stream.get()));
    HF_GPU_CHECK(cudaMemcpyPeerAsync(to.destination.data(), to.gpu, from.source.data(), from.gpu,
                                     static_cast<std::size_t>(bytes), from.stream.get()));
    HF_GPU_CHECK(cudaEventRecord(from.end.get(), from.stream.get()));
  }

  static void check_arrived(const Side& receiver, const std::vector<unsigned char>& expected,
                            const std::string& direction) {
    std::vector<unsigned char> arrived(expected.size());
    receiver.destination.copy_to_host(arrived.data(), arrived.size());
    const auto wrong = std::mismatch(arrived.begin(), arrived.end(), expected.begin());
    if (wrong.first != arrived.end()) {
      throw std::runtime_error("peer copy " + direction + " of " + std::to_string(expected.size()) +
                               " B: byte " + std::to_string(wrong.first - arrived.begin()) +
                               " is " + std::to_string(*wrong.first) + ", expected " +
                               std::to_string(*wrong.second));
    }
  }

  Side a_;
  Side b_;
};

}  // namespace

std::vector<PeerCopySamples> time_peer_copies(const PeerCopyPlan& plan) {
  if (plan.gpu_a == plan.gpu_b) {
    throw std::invalid_argument("peer copies need two GPUs; both are GPU " +
                                std::to_string(plan.gpu_a));
  }
  if (plan.sizes.empty()) throw std::invalid_argument("peer copies: no sizes");
  enable_peer_access(plan.gpu_a, plan.gpu_b);
  enable_peer_access(plan.gpu_b, plan.gpu_a);
  const std::int64_t largest = *std::max_element(plan.sizes.begin(), plan.sizes.end());
  PeerPair pair(plan.gpu_a, plan.gpu_b, largest);
  std::vector<PeerCopySamples> per_size;
  for (const std::int64_t bytes : plan.sizes) {
    if (bytes < 1) throw std::invalid_argument("peer copy of " + std::to_string(bytes) + " B");
    pair.check(bytes);
    double device = 0.0;
    for (int i = 0; i < plan.warmup; ++i) pair.sample(bytes, &device);
    PeerCopySamples samples;
    samples.bytes = bytes;
    for (int i = 0; i < plan.iterations; ++i) {
      samples.wall_seconds.push_back(pair.sample(bytes, &device));
      samples.device_seconds.push_back(device);
    }
    per_size.push_back(std::move(samples));
  }
  select_gpu(plan.gpu_a);
  return per_size;
}

}  // namespace haloflag::bench
