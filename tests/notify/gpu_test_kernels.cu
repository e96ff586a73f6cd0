#include "gpu_test_kernels.hpp"

#include "haloflag/notify/flag_ops.hpp"
#include "haloflag/notify/gpu_runtime.hpp"

namespace haloflag::test {

namespace {

// Thread 0 waits for the host's flag; after the barrier every thread checks its word of the
// host's payload and writes its word of the reply; after a second barrier thread 0 signals.
// The barrier before the signal is what makes the whole payload visible (rule 3).
__global__ void pingpong_kernel(notify::FlagArrayView to_device, notify::FlagArrayView to_host,
                                const std::uint64_t* down, std::uint64_t* up, std::uint64_t epochs,
                                notify::WaitControl control, PingPongResult* result) {
  __shared__ bool failed;
  unsigned long long mismatches = 0;
  for (std::uint64_t epoch = 1; epoch <= epochs; ++epoch) {
    if (threadIdx.x == 0) {
      failed = notify::wait_flag(to_device, 0, epoch, control, notify::Side::device, blockIdx.x) !=
               notify::WaitOutcome::ready;
    }
    __syncthreads();
    if (failed) break;
    if (down[threadIdx.x] != payload_value(epoch, threadIdx.x, 1)) ++mismatches;
    up[threadIdx.x] = payload_value(epoch, threadIdx.x, 0);
    __syncthreads();
    if (threadIdx.x == 0) {
      notify::signal_flag(to_host, 0, epoch);
      result->completed_epochs = epoch;
    }
  }
  atomicAdd(&result->mismatches, mismatches);
}

__global__ void wait_one_kernel(notify::FlagArrayView flags, std::uint32_t index, std::uint64_t epoch,
                                notify::WaitControl control, notify::WaitOutcome* outcome) {
  *outcome = notify::wait_flag(flags, index, epoch, control, notify::Side::device, blockIdx.x);
}

}  // namespace

void launch_pingpong(notify::FlagArrayView to_device, notify::FlagArrayView to_host,
                     const std::uint64_t* down, std::uint64_t* up, std::uint64_t epochs,
                     notify::WaitControl control, PingPongResult* result) {
  pingpong_kernel<<<1, kPingPongThreads>>>(to_device, to_host, down, up, epochs, control, result);
  HF_GPU_CHECK(cudaGetLastError());
}

void launch_wait_one(notify::FlagArrayView flags, std::uint32_t index, std::uint64_t epoch,
                     notify::WaitControl control, notify::WaitOutcome* outcome) {
  wait_one_kernel<<<1, 1>>>(flags, index, epoch, control, outcome);
  HF_GPU_CHECK(cudaGetLastError());
}

}  // namespace haloflag::test
