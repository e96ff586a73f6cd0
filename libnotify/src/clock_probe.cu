#include "clock_probe.hpp"

#include "haloflag/notify/clock.hpp"
#include "haloflag/notify/flag_ops.hpp"
#include "haloflag/notify/gpu_runtime.hpp"

namespace haloflag::notify::detail {
namespace {

__global__ void clock_probe_kernel(FlagArrayView ping, FlagArrayView pong, std::uint64_t* stamps,
                                   std::uint32_t rounds, WaitControl control) {
  for (std::uint32_t epoch = 1; epoch <= rounds; ++epoch) {
    if (wait_flag(ping, 0, epoch, control, Side::device, 0) != WaitOutcome::ready) return;
    stamps[epoch - 1] = clock_ns();
    signal_flag(pong, 0, epoch);
  }
}

// The private stream is destroyed on every path, the kernel having ended (its waits have
// deadlines, and the caller raises the abort flag when the host side fails).
struct ProbeStream {
  cudaStream_t stream{};
  ProbeStream() { HF_GPU_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking)); }
  ~ProbeStream() {
    (void)cudaStreamSynchronize(stream);
    (void)cudaStreamDestroy(stream);
  }
};

}  // namespace

void run_clock_probe(FlagArrayView ping, FlagArrayView pong, std::uint64_t* stamps,
                     std::uint32_t rounds, WaitControl control, ClockProbe& host_side) {
  ProbeStream probe;
  clock_probe_kernel<<<1, 1, 0, probe.stream>>>(ping, pong, stamps, rounds, control);
  HF_GPU_CHECK(cudaGetLastError());
  host_side.run_host_side();
  HF_GPU_CHECK(cudaStreamSynchronize(probe.stream));
}

}  // namespace haloflag::notify::detail
