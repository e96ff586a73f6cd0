// Choosing the GPU a process uses and describing it. Host-only builds throw NotifyError.
#pragma once

#include <cstdint>
#include <string>

namespace haloflag::notify {

struct GpuDeviceInfo {
  int index = 0;           // in the process's view (after CUDA_VISIBLE_DEVICES / HIP_VISIBLE_DEVICES)
  std::string name;        // e.g. "NVIDIA H100 80GB HBM3"
  std::string pci_bus_id;  // e.g. "0000:19:00.0": names the physical card
};

// Makes `device` current for this host thread and the runtime calls that follow.
void set_current_gpu(int device);
int current_gpu();
GpuDeviceInfo gpu_device_info(int device);

// Bytes of memory free on the current GPU now and its total (cudaMemGetInfo/hipMemGetInfo).
struct GpuMemoryInfo {
  std::int64_t free_bytes = 0;
  std::int64_t total_bytes = 0;
};
GpuMemoryInfo current_gpu_memory();

}  // namespace haloflag::notify
