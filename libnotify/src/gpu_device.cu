#include "haloflag/notify/gpu_device.hpp"

#include "haloflag/notify/gpu_runtime.hpp"

namespace haloflag::notify {

void set_current_gpu(int device) { HF_GPU_CHECK(cudaSetDevice(device)); }

int current_gpu() {
  int device = 0;
  HF_GPU_CHECK(cudaGetDevice(&device));
  return device;
}

GpuDeviceInfo gpu_device_info(int device) {
  cudaDeviceProp properties{};
  HF_GPU_CHECK(cudaGetDeviceProperties(&properties, device));
  char bus_id[32] = {};
  HF_GPU_CHECK(cudaDeviceGetPCIBusId(bus_id, static_cast<int>(sizeof bus_id), device));
  return GpuDeviceInfo{device, properties.name, bus_id};
}

GpuMemoryInfo current_gpu_memory() {
  std::size_t free_bytes = 0;
  std::size_t total_bytes = 0;
  HF_GPU_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  return GpuMemoryInfo{static_cast<std::int64_t>(free_bytes), static_cast<std::int64_t>(total_bytes)};
}

bool enable_peer_access(int from, int to) {
  int can_access = 0;
  HF_GPU_CHECK(cudaDeviceCanAccessPeer(&can_access, from, to));
  if (can_access == 0) return false;
  HF_GPU_CHECK(cudaSetDevice(from));
  const cudaError_t status = cudaDeviceEnablePeerAccess(to, 0);
  if (status == cudaErrorPeerAccessAlreadyEnabled) {
    (void)cudaGetLastError();  // clears the sticky "already enabled"
    return true;
  }
  HF_GPU_CHECK(status);
  return true;
}

}  // namespace haloflag::notify
