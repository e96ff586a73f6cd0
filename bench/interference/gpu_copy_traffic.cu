// The copies scenario on a GPU: cudaMemcpyAsync host->device and device->host of `bytes` each,
// between pinned host memory and device memory, on two non-blocking streams so that both copy
// directions run at once. CUDA and HIP alike through gpu_runtime.hpp.
#include <cstddef>
#include <memory>
#include <string>

#include "copy_traffic.hpp"
#include "haloflag/bench/gpu_build.hpp"
#include "haloflag/kernels/device_memory.hpp"
#include "haloflag/notify/gpu_device.hpp"
#include "haloflag/notify/gpu_runtime.hpp"
#include "haloflag/notify/mapped_allocation.hpp"

namespace haloflag::bench::interference {

namespace {

class NonBlockingStream {
 public:
  NonBlockingStream() { HF_GPU_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking)); }
  ~NonBlockingStream() {
    (void)cudaStreamSynchronize(stream_);
    (void)cudaStreamDestroy(stream_);
  }
  NonBlockingStream(const NonBlockingStream&) = delete;
  NonBlockingStream& operator=(const NonBlockingStream&) = delete;
  cudaStream_t get() const { return stream_; }

 private:
  cudaStream_t stream_ = nullptr;
};

// Made on the thread that has GPU `index` current; the copy thread makes it current as well.
struct CopyBuffers {
  explicit CopyBuffers(std::size_t bytes)
      : host(kGpuBackend, 2 * bytes), device(kGpuBackend, 2 * bytes), bytes(bytes) {}

  void copy_pair() {
    auto* host_bytes = static_cast<unsigned char*>(host.host());
    auto* device_bytes = static_cast<unsigned char*>(device.data());
    HF_GPU_CHECK(cudaMemcpyAsync(device_bytes, host_bytes, bytes, cudaMemcpyHostToDevice,
                                 to_device.get()));
    HF_GPU_CHECK(cudaMemcpyAsync(host_bytes + bytes, device_bytes + bytes, bytes,
                                 cudaMemcpyDeviceToHost, to_host.get()));
    HF_GPU_CHECK(cudaStreamSynchronize(to_device.get()));
    HF_GPU_CHECK(cudaStreamSynchronize(to_host.get()));
  }

  notify::MappedAllocation host;  // pinned: [0, bytes) goes up, [bytes, 2 bytes) comes down
  kernels::DeviceMemory device;
  NonBlockingStream to_device;
  NonBlockingStream to_host;
  std::size_t bytes;
};

}  // namespace

std::unique_ptr<CopyTraffic> make_gpu_copy_traffic(int index, std::size_t bytes) {
  auto buffers = std::make_shared<CopyBuffers>(bytes);
  return std::make_unique<CopyTraffic>(
      "cudaMemcpyAsync host->device and device->host of " + std::to_string(bytes) +
          " bytes each (pinned host memory, two non-blocking streams) on GPU " +
          std::to_string(index),
      bytes, [index] { notify::set_current_gpu(index); }, [buffers] { buffers->copy_pair(); });
}

}  // namespace haloflag::bench::interference
