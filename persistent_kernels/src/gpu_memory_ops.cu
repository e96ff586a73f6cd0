// Device allocation and copies for DeviceMemory. Every operation runs on a private non-blocking
// stream and waits for it: a plain cudaMemcpy from pageable memory may return before the data
// reaches the GPU, and the exchange kernels (on non-blocking streams, resident ones never
// ending) are not ordered after the legacy stream. A device-wide synchronise would wait for
// resident kernels forever, so it is never used.
#include "gpu_memory_ops.hpp"

#include "haloflag/notify/gpu_runtime.hpp"

namespace haloflag::kernels::detail {
namespace {

// One per host thread and device: streams belong to the device current at creation.
cudaStream_t copy_stream() {
  thread_local int device = -1;
  thread_local cudaStream_t stream = nullptr;
  int current = 0;
  HF_GPU_CHECK(cudaGetDevice(&current));
  if (stream == nullptr || device != current) {
    HF_GPU_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    device = current;
  }
  return stream;
}

}  // namespace

void* gpu_allocate(std::size_t bytes) {
  void* pointer = nullptr;
  HF_GPU_CHECK(cudaMalloc(&pointer, bytes));
  cudaStream_t stream = copy_stream();
  HF_GPU_CHECK(cudaMemsetAsync(pointer, 0, bytes, stream));
  HF_GPU_CHECK(cudaStreamSynchronize(stream));
  return pointer;
}

void gpu_free(void* pointer) noexcept { (void)cudaFree(pointer); }

void gpu_copy_to_device(void* destination, const void* source, std::size_t bytes) {
  cudaStream_t stream = copy_stream();
  HF_GPU_CHECK(cudaMemcpyAsync(destination, source, bytes, cudaMemcpyHostToDevice, stream));
  HF_GPU_CHECK(cudaStreamSynchronize(stream));
}

void gpu_copy_to_host(void* destination, const void* source, std::size_t bytes) {
  cudaStream_t stream = copy_stream();
  HF_GPU_CHECK(cudaMemcpyAsync(destination, source, bytes, cudaMemcpyDeviceToHost, stream));
  HF_GPU_CHECK(cudaStreamSynchronize(stream));
}

}  // namespace haloflag::kernels::detail
