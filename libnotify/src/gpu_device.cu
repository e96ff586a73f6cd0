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

}  // namespace haloflag::notify
