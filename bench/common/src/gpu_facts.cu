// CUDA and HIP alike through gpu_runtime.hpp.
#include <string>

#include "haloflag/bench/gpu_facts.hpp"
#include "haloflag/notify/gpu_device.hpp"
#include "haloflag/notify/gpu_runtime.hpp"

namespace haloflag::bench {

namespace {

// A runtime version number as text (CUDA: 1000 * major + 10 * minor; HIP: 10^7 * major +
// 10^5 * minor + patch).
std::string version_text(int version) {
#if defined(HALOFLAG_HAVE_HIP)
  return std::to_string(version / 10'000'000) + "." + std::to_string(version / 100'000 % 100) +
         "." + std::to_string(version % 100'000);
#else
  return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
#endif
}

}  // namespace

GpuFacts collect_gpu_facts(int index) {
  const notify::GpuDeviceInfo info = notify::gpu_device_info(index);
  cudaDeviceProp properties{};
  HF_GPU_CHECK(cudaGetDeviceProperties(&properties, index));
  GpuFacts facts;
  facts.index = index;
  facts.name = info.name;
  facts.pci_bus_id = info.pci_bus_id;
  facts.multiprocessors = properties.multiProcessorCount;
  int driver = 0;
  int runtime = 0;
#if defined(HALOFLAG_HAVE_HIP)
  facts.architecture = properties.gcnArchName;
  HF_GPU_CHECK(hipDriverGetVersion(&driver));
  HF_GPU_CHECK(hipRuntimeGetVersion(&runtime));
#else
  facts.architecture = "sm_" + std::to_string(properties.major) + std::to_string(properties.minor);
  HF_GPU_CHECK(cudaDriverGetVersion(&driver));
  HF_GPU_CHECK(cudaRuntimeGetVersion(&runtime));
  int native_atomics = 0;
  HF_GPU_CHECK(
      cudaDeviceGetAttribute(&native_atomics, cudaDevAttrHostNativeAtomicSupported, index));
  facts.host_native_atomics = native_atomics != 0;
#endif
  facts.driver_version = version_text(driver);
  facts.runtime_version = version_text(runtime);
  return facts;
}

}  // namespace haloflag::bench
