#include "gpu_memory.hpp"

#include "haloflag/notify/gpu_runtime.hpp"

namespace haloflag::notify::detail {

void* gpu_alloc_mapped(std::size_t bytes, void** device_address) {
  void* host = nullptr;
  // Portable: usable from every device this process touches. Mapped: kernels access it directly.
  HF_GPU_CHECK(cudaHostAlloc(&host, bytes, cudaHostAllocMapped | cudaHostAllocPortable));
  const cudaError_t status = cudaHostGetDevicePointer(device_address, host, 0);
  if (status != cudaSuccess) {
    (void)cudaFreeHost(host);
    check_gpu(status, "cudaHostGetDevicePointer", __FILE__, __LINE__);
  }
  return host;
}

void gpu_free_mapped(void* host_address) noexcept { (void)cudaFreeHost(host_address); }

int gpu_count(std::string* why) {
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess) {
    if (why) *why = std::string("cudaGetDeviceCount failed: ") + cudaGetErrorString(status);
    (void)cudaGetLastError();  // clear it so later calls start clean
    return 0;
  }
  if (count == 0 && why) *why = "cudaGetDeviceCount reported 0 devices";
  return count;
}

}  // namespace haloflag::notify::detail
