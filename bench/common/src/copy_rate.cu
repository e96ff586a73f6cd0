// The GPU side of measure_copy_rate (copy_rate.cpp), CUDA and HIP alike through gpu_runtime.hpp.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "haloflag/notify/gpu_handles.hpp"
#include "haloflag/notify/gpu_runtime.hpp"

namespace haloflag::bench::detail {

namespace {

// A device allocation freed on every path out.
class DeviceBuffer {
 public:
  explicit DeviceBuffer(std::size_t bytes) { HF_GPU_CHECK(cudaMalloc(&data_, bytes)); }
  ~DeviceBuffer() { (void)cudaFree(data_); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  void* get() const { return data_; }

 private:
  void* data_ = nullptr;
};

}  // namespace

double gpu_copy_seconds(std::int64_t bytes, int repeats) {
  const auto size = static_cast<std::size_t>(bytes);
  const DeviceBuffer from(size);
  const DeviceBuffer to(size);
  const notify::GpuStream stream;
  const notify::GpuEvent begin;
  const notify::GpuEvent end;
  // Every page written before the first copy, and two untimed copies: the first use of a
  // buffer and of the copy engine path costs more than the steady state.
  HF_GPU_CHECK(cudaMemsetAsync(from.get(), 0, size, stream.get()));
  HF_GPU_CHECK(cudaMemsetAsync(to.get(), 0, size, stream.get()));
  for (int w = 0; w < 2; ++w) {
    HF_GPU_CHECK(
        cudaMemcpyAsync(to.get(), from.get(), size, cudaMemcpyDeviceToDevice, stream.get()));
  }
  std::vector<double> seconds;
  seconds.reserve(static_cast<std::size_t>(repeats));
  for (int r = 0; r < repeats; ++r) {
    HF_GPU_CHECK(cudaEventRecord(begin.get(), stream.get()));
    HF_GPU_CHECK(
        cudaMemcpyAsync(to.get(), from.get(), size, cudaMemcpyDeviceToDevice, stream.get()));
    HF_GPU_CHECK(cudaEventRecord(end.get(), stream.get()));
    HF_GPU_CHECK(cudaEventSynchronize(end.get()));
    float milliseconds = 0.0f;
    HF_GPU_CHECK(cudaEventElapsedTime(&milliseconds, begin.get(), end.get()));
    seconds.push_back(static_cast<double>(milliseconds) * 1e-3);
  }
  std::sort(seconds.begin(), seconds.end());
  const std::size_t n = seconds.size();
  return n % 2 == 1 ? seconds[n / 2] : 0.5 * (seconds[n / 2 - 1] + seconds[n / 2]);
}

}  // namespace haloflag::bench::detail
