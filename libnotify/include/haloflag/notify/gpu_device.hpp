/// @file
/// Choosing the GPU a process uses and describing it. Host-only builds throw NotifyError.
#pragma once

#include <cstdint>
#include <string>

namespace haloflag::notify {

/// Identity of one GPU.
struct GpuDeviceInfo {
  int index = 0;           ///< in the process's view (after CUDA_VISIBLE_DEVICES / HIP_VISIBLE_DEVICES)
  std::string name;        ///< e.g. "NVIDIA H100 80GB HBM3"
  std::string pci_bus_id;  ///< e.g. "0000:19:00.0": names the physical card
};

/// Makes `device` current for this host thread and the runtime calls that follow.
void set_current_gpu(int device);
/// The GPU current for this host thread.
int current_gpu();
/// Index, name and PCI bus id of GPU `device`.
GpuDeviceInfo gpu_device_info(int device);

/// Bytes of memory free on the current GPU now and its total (cudaMemGetInfo/hipMemGetInfo).
struct GpuMemoryInfo {
  std::int64_t free_bytes = 0;  ///< free memory of the GPU
  std::int64_t total_bytes = 0;  ///< total memory of the GPU
};
/// Free and total memory of the current GPU.
GpuMemoryInfo current_gpu_memory();

/// Lets GPU `from` read and write the memory of GPU `to` (cudaDeviceEnablePeerAccess, made with
/// `from` current, which stays current). False, enabling nothing, where the pair has no peer
/// access; an access enabled already is no error.
bool enable_peer_access(int from, int to);

}  // namespace haloflag::notify
