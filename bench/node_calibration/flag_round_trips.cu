// CUDA and HIP alike through gpu_runtime.hpp.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "flag_round_trips.hpp"
#include "haloflag/bench/gpu_build.hpp"
#include "haloflag/kernels/device_memory.hpp"
#include "haloflag/notify/clock.hpp"
#include "haloflag/notify/control_block.hpp"
#include "haloflag/notify/flag_line.hpp"
#include "haloflag/notify/flag_ops.hpp"
#include "haloflag/notify/gpu_runtime.hpp"

namespace haloflag::bench {

namespace {

constexpr std::uint32_t kPing = 0;  // written by block 0, polled by block 1
constexpr std::uint32_t kPong = 1;  // written by block 1, polled by block 0

struct RoundTripPlan {
  notify::FlagArrayView flags;  // kPing and kPong, in device memory
  notify::WaitControl control;
  std::uint32_t samples = 0;  // warm-up included
  std::uint32_t round_trips_per_sample = 0;
  std::uint64_t* sample_ns = nullptr;  // device memory, one per sample
};

// Thread 0 of block 0 raises ping and waits for pong; thread 0 of block 1 answers. Every wait
// has the control's deadline; on a failure the block stops and the host reports the record. The
// waits skip the abort flag: it lives in host memory, and one read of it would weigh on a sample.
__global__ void round_trip_kernel(RoundTripPlan plan) {
  if (threadIdx.x != 0) return;
  const bool initiator = blockIdx.x == 0;
  std::uint64_t epoch = 0;
  for (std::uint32_t sample = 0; sample < plan.samples; ++sample) {
    const std::uint64_t start = notify::clock_ns();
    for (std::uint32_t trip = 0; trip < plan.round_trips_per_sample; ++trip) {
      ++epoch;
      if (initiator) notify::signal_flag(plan.flags, kPing, epoch);
      const std::uint32_t awaited = initiator ? kPong : kPing;
      if (notify::wait_flag(plan.flags, awaited, epoch, plan.control, notify::Side::device,
                            blockIdx.x, notify::AbortReads::none) != notify::WaitOutcome::ready) {
        return;
      }
      if (!initiator) notify::signal_flag(plan.flags, kPong, epoch);
    }
    if (initiator) plan.sample_ns[sample] = notify::clock_ns() - start;
  }
}

}  // namespace

std::vector<double> time_flag_round_trips(const FlagTimingPlan& plan) {
  if (plan.samples < 1 || plan.warmup_samples < 0 || plan.round_trips_per_sample < 1) {
    throw std::invalid_argument("flag timing: samples and round trips per sample must be >= 1, "
                                "warm-up samples >= 0");
  }
  notify::ControlBlock control(kGpuBackend, plan.timeout);
  control.set_poll_backoff(std::chrono::nanoseconds(plan.poll_backoff_ns));
  const auto total = static_cast<std::uint32_t>(plan.samples + plan.warmup_samples);
  kernels::DeviceMemory flags(kGpuBackend, 2 * notify::kFlagLineBytes);  // zero: epoch 0
  kernels::DeviceMemory samples(kGpuBackend, total * sizeof(std::uint64_t));

  RoundTripPlan device_plan;
  device_plan.flags = {static_cast<notify::FlagLine*>(flags.data()), 2,
                       control.register_array("node calibration ping/pong flags")};
  device_plan.control = control.device_control();
  device_plan.samples = total;
  device_plan.round_trips_per_sample = static_cast<std::uint32_t>(plan.round_trips_per_sample);
  device_plan.sample_ns = static_cast<std::uint64_t*>(samples.data());

  cudaStream_t stream = nullptr;
  HF_GPU_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  round_trip_kernel<<<2, 32, 0, stream>>>(device_plan);
  const cudaError_t launched = cudaGetLastError();
  const cudaError_t finished = cudaStreamSynchronize(stream);
  (void)cudaStreamDestroy(stream);
  HF_GPU_CHECK(launched);
  HF_GPU_CHECK(finished);
  control.throw_if_device_failed();

  std::vector<std::uint64_t> nanoseconds(total);
  samples.copy_to_host(nanoseconds.data(), nanoseconds.size() * sizeof(std::uint64_t));
  std::vector<double> one_way;
  const double per_sample = 2.0 * plan.round_trips_per_sample;
  for (std::uint32_t i = static_cast<std::uint32_t>(plan.warmup_samples); i < total; ++i) {
    one_way.push_back(static_cast<double>(nanoseconds[i]) * 1e-9 / per_sample);
  }
  return one_way;
}

}  // namespace haloflag::bench
