// Stream memory operations. HIP has them in its runtime. CUDA has them only in the driver API;
// its entry points are fetched through the runtime (cudaGetDriverEntryPointByVersion) rather
// than by linking libcuda, so that binaries built with CUDA still start on machines without a
// driver (CI), where only the host backend runs.
#include <mutex>
#include <string>

#include "gpu_stream_ops.hpp"
#include "haloflag/notify/errors.hpp"
#include "haloflag/notify/gpu_driver.hpp"
#include "haloflag/notify/gpu_runtime.hpp"

#if !defined(HALOFLAG_HAVE_HIP)
#include <cuda.h>
#endif

namespace haloflag::notify::detail {
namespace {

#if defined(HALOFLAG_HAVE_HIP)

void check_hip(hipError_t status, const char* call) {
  if (status != hipSuccess) {
    throw NotifyError(std::string(call) + " failed: " + hipGetErrorString(status));
  }
}

#else

using WriteValue64 = CUresult (*)(CUstream, CUdeviceptr, cuuint64_t, unsigned int);
using WriteValue32 = CUresult (*)(CUstream, CUdeviceptr, cuuint32_t, unsigned int);
using WaitValue64 = CUresult (*)(CUstream, CUdeviceptr, cuuint64_t, unsigned int);
using DeviceAttribute = CUresult (*)(int*, CUdevice_attribute, CUdevice);

struct DriverCalls {
  WriteValue64 write64 = nullptr;
  WriteValue32 write32 = nullptr;
  WaitValue64 wait64 = nullptr;
  DeviceAttribute attribute = nullptr;
};

template <class Function>
Function entry_point(const char* symbol) {
  return reinterpret_cast<Function>(cuda_driver_entry_point(symbol));
}

const DriverCalls& driver() {
  static std::once_flag once;
  static DriverCalls calls;
  std::call_once(once, [] {
    calls.write64 = entry_point<WriteValue64>("cuStreamWriteValue64");
    calls.write32 = entry_point<WriteValue32>("cuStreamWriteValue32");
    calls.wait64 = entry_point<WaitValue64>("cuStreamWaitValue64");
    calls.attribute = entry_point<DeviceAttribute>("cuDeviceGetAttribute");
  });
  return calls;
}

void check_driver(CUresult status, const char* call) {
  if (status != CUDA_SUCCESS) {
    throw NotifyError(std::string(call) + " failed with CUDA driver error " +
                      std::to_string(static_cast<int>(status)));
  }
}

CUdeviceptr address(const void* pointer) {
  return static_cast<CUdeviceptr>(reinterpret_cast<std::uintptr_t>(pointer));
}

#endif

}  // namespace

}  // namespace haloflag::notify::detail

namespace haloflag::notify {

#if !defined(HALOFLAG_HAVE_HIP)
void* cuda_driver_entry_point(const char* symbol) {
  void* function = nullptr;
  cudaDriverEntryPointQueryResult found{};
  const cudaError_t status =
      cudaGetDriverEntryPointByVersion(symbol, &function, 12000, cudaEnableDefault, &found);
  if (status != cudaSuccess || found != cudaDriverEntryPointSuccess || function == nullptr) {
    throw NotifyError(std::string("the CUDA driver does not provide ") + symbol + " (" +
                      cudaGetErrorString(status) + ")");
  }
  return function;
}
#endif

}  // namespace haloflag::notify

namespace haloflag::notify::detail {

void gpu_check_stream_memory_ops() {
  int device = 0;
  HF_GPU_CHECK(cudaGetDevice(&device));
  int supported = 0;
#if defined(HALOFLAG_HAVE_HIP)
  HF_GPU_CHECK(hipDeviceGetAttribute(&supported, hipDeviceAttributeCanUseStreamWaitValue, device));
#else
  // A driver attribute: the runtime's enum has no entry for it. Runtime and driver number
  // devices alike.
  check_driver(driver().attribute(&supported, CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS,
                                  static_cast<CUdevice>(device)),
               "cuDeviceGetAttribute");
#endif
  if (!supported) {
    throw NotifyError("GPU " + std::to_string(device) +
                      " cannot run 64-bit stream memory operations (stream wait and write "
                      "value), which start(stream) and wait(stream) need");
  }
}

void gpu_stream_store64(void* stream, std::uint64_t* word, std::uint64_t value) {
#if defined(HALOFLAG_HAVE_HIP)
  check_hip(hipStreamWriteValue64(static_cast<hipStream_t>(stream), word, value, 0),
            "hipStreamWriteValue64");
#else
  // Default flags: a system-wide fence first, so the work before it is visible with the value.
  check_driver(driver().write64(static_cast<CUstream>(stream), address(word), value,
                                CU_STREAM_WRITE_VALUE_DEFAULT),
               "cuStreamWriteValue64");
#endif
}

void gpu_stream_store32(void* stream, std::uint32_t* word, std::uint32_t value) {
#if defined(HALOFLAG_HAVE_HIP)
  check_hip(hipStreamWriteValue32(static_cast<hipStream_t>(stream), word, value, 0),
            "hipStreamWriteValue32");
#else
  check_driver(driver().write32(static_cast<CUstream>(stream), address(word), value,
                                CU_STREAM_WRITE_VALUE_DEFAULT),
               "cuStreamWriteValue32");
#endif
}

void gpu_stream_wait64(void* stream, const std::uint64_t* word, std::uint64_t value) {
#if defined(HALOFLAG_HAVE_HIP)
  check_hip(hipStreamWaitValue64(static_cast<hipStream_t>(stream), const_cast<std::uint64_t*>(word),
                                 value, hipStreamWaitValueGte),
            "hipStreamWaitValue64");
#else
  check_driver(driver().wait64(static_cast<CUstream>(stream), address(word), value,
                               CU_STREAM_WAIT_VALUE_GEQ),
               "cuStreamWaitValue64");
#endif
}

}  // namespace haloflag::notify::detail
