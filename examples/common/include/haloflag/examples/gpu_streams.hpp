// GPU helpers the examples' kernels files share (CUDA or HIP through notify/gpu_runtime.hpp;
// include from GPU sources only): the current GPU's multiprocessor count, the blocks of a kernel
// it holds at once, and a stream of the highest or lowest priority, for a loop whose boundary
// must overtake its interior.
#pragma once

#include <algorithm>

#include "haloflag/notify/gpu_runtime.hpp"

namespace haloflag::examples {

inline int multiprocessors() {
  int device = 0;
  int count = 0;
  HF_GPU_CHECK(cudaGetDevice(&device));
  HF_GPU_CHECK(cudaDeviceGetAttribute(&count, cudaDevAttrMultiProcessorCount, device));
  return count;
}

// The blocks of `kernel`, `threads` each, that the current GPU holds at once (the occupancy
// API's), and at least one per multiprocessor.
inline int blocks_held(const void* kernel, int threads) {
  int per_sm = 0;
  HF_GPU_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, 0));
  return std::max(per_sm, 1) * multiprocessors();
}

// A non-blocking stream of the given priority (notify::GpuStream has the default, the lowest).
class PriorityStream {
 public:
  enum class Priority { highest, lowest };
  explicit PriorityStream(Priority priority) {
    int least = 0;
    int greatest = 0;
    HF_GPU_CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
    HF_GPU_CHECK(cudaStreamCreateWithPriority(
        &stream_, cudaStreamNonBlocking, priority == Priority::highest ? greatest : least));
  }
  ~PriorityStream() {
    (void)cudaStreamSynchronize(stream_);
    (void)cudaStreamDestroy(stream_);
  }
  PriorityStream(const PriorityStream&) = delete;
  PriorityStream& operator=(const PriorityStream&) = delete;
  cudaStream_t get() const { return stream_; }

 private:
  cudaStream_t stream_ = nullptr;
};

}  // namespace haloflag::examples
