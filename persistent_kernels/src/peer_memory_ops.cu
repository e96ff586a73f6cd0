// IPC handles and host registration on CUDA and HIP (the names are mapped in gpu_runtime.hpp).
#include <cstring>
#include <string>

#if !defined(HALOFLAG_HAVE_HIP)
#include <cuda.h>

#include "haloflag/notify/gpu_driver.hpp"
#endif

#include "haloflag/kernels/kernel_runner.hpp"
#include "haloflag/kernels/peer_memory.hpp"
#include "haloflag/notify/gpu_runtime.hpp"
#include "peer_memory_ops.hpp"

namespace haloflag::kernels::detail {
namespace {

static_assert(sizeof(cudaIpcMemHandle_t) == kIpcHandleBytes);

void check(cudaError_t status, const char* call) {
  if (status != cudaSuccess) {
    (void)cudaGetLastError();  // the error is reported here; later calls start clean
    throw KernelError(std::string(call) + " failed: " + cudaGetErrorString(status));
  }
}

}  // namespace

void gpu_ipc_export(const void* device_base, std::byte* handle) {
  cudaIpcMemHandle_t ipc{};
  check(cudaIpcGetMemHandle(&ipc, const_cast<void*>(device_base)), "cudaIpcGetMemHandle");
  std::memcpy(handle, &ipc, sizeof ipc);
}

const void* gpu_allocation_base(const void* device_pointer) {
#if defined(HALOFLAG_HAVE_HIP)
  hipDeviceptr_t base = nullptr;
  std::size_t bytes = 0;
  check(hipMemGetAddressRange(&base, &bytes, const_cast<void*>(device_pointer)),
        "hipMemGetAddressRange");
  return base;
#else
  using AddressRange = CUresult (*)(CUdeviceptr*, std::size_t*, CUdeviceptr);
  static const auto address_range =
      reinterpret_cast<AddressRange>(notify::cuda_driver_entry_point("cuMemGetAddressRange"));
  CUdeviceptr base = 0;
  std::size_t bytes = 0;
  const CUresult status =
      address_range(&base, &bytes, reinterpret_cast<CUdeviceptr>(device_pointer));
  if (status != CUDA_SUCCESS) {
    throw KernelError("cuMemGetAddressRange failed with CUDA driver error " +
                      std::to_string(static_cast<int>(status)) +
                      ": not device memory of this process's GPU");
  }
  return reinterpret_cast<const void*>(base);
#endif
}

bool gpu_native_peer_atomics(const char* peer_pci_bus_id) {
  int mine = 0;
  int other = 0;
  if (cudaGetDevice(&mine) != cudaSuccess ||
      cudaDeviceGetByPCIBusId(&other, peer_pci_bus_id) != cudaSuccess) {
    (void)cudaGetLastError();  // the peer's GPU is not visible here: no way to tell
    return false;
  }
  if (other == mine) return true;
  int native = 0;
  if (cudaDeviceGetP2PAttribute(&native, cudaDevP2PAttrNativeAtomicSupported, mine, other) !=
      cudaSuccess) {
    (void)cudaGetLastError();
    return false;
  }
  return native != 0;
}

void* gpu_ipc_open(const std::byte* handle) {
  cudaIpcMemHandle_t ipc{};
  std::memcpy(&ipc, handle, sizeof ipc);
  void* mapped = nullptr;
  check(cudaIpcOpenMemHandle(&mapped, ipc, cudaIpcMemLazyEnablePeerAccess),
        "cudaIpcOpenMemHandle");
  return mapped;
}

void gpu_ipc_close(void* mapped) noexcept { (void)cudaIpcCloseMemHandle(mapped); }

void* gpu_host_register(void* host, std::size_t bytes) {
  check(cudaHostRegister(host, bytes, cudaHostRegisterMapped | cudaHostRegisterPortable),
        "cudaHostRegister");
  void* device = nullptr;
  const cudaError_t status = cudaHostGetDevicePointer(&device, host, 0);
  if (status != cudaSuccess) {
    (void)cudaHostUnregister(host);
    check(status, "cudaHostGetDevicePointer");
  }
  return device;
}

void gpu_host_unregister(void* host) noexcept { (void)cudaHostUnregister(host); }

}  // namespace haloflag::kernels::detail
