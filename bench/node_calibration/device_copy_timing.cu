// CUDA and HIP alike through gpu_runtime.hpp (which maps no event calls: they are mapped below).
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "device_copy_timing.hpp"
#include "haloflag/bench/gpu_build.hpp"
#include "haloflag/kernels/device_memory.hpp"
#include "haloflag/kernels/message_layout.hpp"
#include "haloflag/kernels/pack_unpack.hpp"
#include "haloflag/notify/clock.hpp"
#include "haloflag/notify/flag_line.hpp"
#include "haloflag/notify/flag_ops.hpp"
#include "haloflag/notify/gpu_handles.hpp"
#include "haloflag/notify/gpu_runtime.hpp"

namespace haloflag::bench {

namespace {

// The copy moves doubles, as the halo messages of the calibration do.
using Element = double;
constexpr int kElementsInFlight = kernels::kElementsInFlight;

// Long enough for the host to queue the timed launches behind it, so that the GPU runs them back
// to back instead of waiting for the host between them.
constexpr std::uint64_t kQueueingDelayNs = 100'000;

// The pack kernel's way of moving a message (pack_unpack.hpp): thread t moves elements
// t + (r * kElementsInFlight + k) * threads, all loads of a round before its stores; then the
// block's barrier and one release store, as a sender announces a message.
__global__ void copy_kernel(const Element* source, Element* destination, std::int64_t elements,
                            int copies, notify::FlagArrayView done) {
  const std::int64_t threads = blockDim.x;
  for (int copy = 0; copy < copies; ++copy) {
    for (std::int64_t first = threadIdx.x; first < elements; first += threads * kElementsInFlight) {
      Element values[kElementsInFlight] = {};
      HF_UNROLL
      for (int k = 0; k < kElementsInFlight; ++k) {
        const std::int64_t e = first + k * threads;
        if (e < elements) values[k] = source[e];
      }
      HF_UNROLL
      for (int k = 0; k < kElementsInFlight; ++k) {
        const std::int64_t e = first + k * threads;
        if (e < elements) destination[e] = values[k];
      }
    }
    __syncthreads();
    if (threadIdx.x == 0) notify::signal_flag(done, 0, static_cast<std::uint64_t>(copy) + 1);
  }
}

// Spins for `ns` on the device clock: the wait ends by itself.
__global__ void delay_kernel(std::uint64_t ns) {
  const std::uint64_t start = notify::clock_ns();
  while (notify::clock_ns() - start < ns) {
  }
}

using Stream = haloflag::notify::GpuStream;
using Event = haloflag::notify::GpuEvent;

double elapsed_seconds(const Event& from, const Event& to) {
  float milliseconds = 0.0f;
  HF_GPU_CHECK(cudaEventElapsedTime(&milliseconds, from.get(), to.get()));
  return static_cast<double>(milliseconds) * 1e-3;
}

// A distinct byte pattern per size, so that a copy left over from another size cannot pass.
std::vector<unsigned char> pattern(std::int64_t bytes) {
  std::vector<unsigned char> data(static_cast<std::size_t>(bytes));
  for (std::size_t i = 0; i < data.size(); ++i) {
    data[i] = static_cast<unsigned char>((i * 131 + static_cast<std::size_t>(bytes) / 8) % 251);
  }
  return data;
}

class CopyBench {
 public:
  CopyBench(const CopyTimingPlan& plan, std::int64_t bytes)
      : plan_(plan),
        bytes_(bytes),
        source_(kGpuBackend, static_cast<std::size_t>(bytes)),
        destination_(kGpuBackend, static_cast<std::size_t>(bytes)),
        done_(kGpuBackend, notify::kFlagLineBytes) {}

  void check() {
    const std::vector<unsigned char> expected = pattern(bytes_);
    source_.copy_from_host(expected.data(), expected.size());
    launch(1);
    HF_GPU_CHECK(cudaStreamSynchronize(stream_.get()));
    std::vector<unsigned char> copied(expected.size());
    destination_.copy_to_host(copied.data(), copied.size());
    for (std::size_t i = 0; i < copied.size(); ++i) {
      if (copied[i] != expected[i]) {
        throw std::runtime_error("device copy of " + std::to_string(bytes_) + " B: byte " +
                                 std::to_string(i) + " is " + std::to_string(copied[i]) +
                                 ", expected " + std::to_string(expected[i]));
      }
    }
  }

  // One copy's time from a pair of launches (one copy, then copies_per_launch copies).
  double time_pair() {
    delay_kernel<<<1, 1, 0, stream_.get()>>>(kQueueingDelayNs);
    HF_GPU_CHECK(cudaEventRecord(before_.get(), stream_.get()));
    launch(1);
    HF_GPU_CHECK(cudaEventRecord(between_.get(), stream_.get()));
    launch(plan_.copies_per_launch);
    HF_GPU_CHECK(cudaEventRecord(after_.get(), stream_.get()));
    HF_GPU_CHECK(cudaGetLastError());
    HF_GPU_CHECK(cudaEventSynchronize(after_.get()));
    const double one = elapsed_seconds(before_, between_);
    const double many = elapsed_seconds(between_, after_);
    return (many - one) / (plan_.copies_per_launch - 1);
  }

 private:
  void launch(int copies) {
    const notify::FlagArrayView done{static_cast<notify::FlagLine*>(done_.data()), 1, 0};
    copy_kernel<<<1, plan_.threads, 0, stream_.get()>>>(
        static_cast<const Element*>(source_.data()), static_cast<Element*>(destination_.data()),
        bytes_ / static_cast<std::int64_t>(sizeof(Element)), copies, done);
  }

  const CopyTimingPlan& plan_;
  std::int64_t bytes_;
  kernels::DeviceMemory source_;
  kernels::DeviceMemory destination_;
  kernels::DeviceMemory done_;
  Stream stream_;
  Event before_;
  Event between_;
  Event after_;
};

}  // namespace

std::vector<std::vector<double>> time_device_copies(const CopyTimingPlan& plan) {
  if (plan.copies_per_launch < 2) {
    throw std::invalid_argument("copies per launch must be >= 2, got " +
                                std::to_string(plan.copies_per_launch));
  }
  std::vector<std::vector<double>> per_size;
  for (const std::int64_t bytes : plan.sizes) {
    if (bytes < 1 || bytes % static_cast<std::int64_t>(sizeof(Element)) != 0) {
      throw std::invalid_argument("copy size " + std::to_string(bytes) +
                                  " B is not a positive multiple of 8 (the pack's element)");
    }
    CopyBench bench(plan, bytes);
    bench.check();
    for (int i = 0; i < plan.warmup; ++i) bench.time_pair();
    std::vector<double> samples;
    for (int i = 0; i < plan.iterations; ++i) samples.push_back(bench.time_pair());
    per_size.push_back(std::move(samples));
  }
  return per_size;
}

}  // namespace haloflag::bench
