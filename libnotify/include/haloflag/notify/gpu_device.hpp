// Choosing the GPU a process uses and describing it. Host-only builds throw NotifyError.
#pragma once

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

}  // namespace haloflag::notify
