#include "gpu_memory_ops.hpp"

#include "haloflag/notify/gpu_runtime.hpp"

namespace haloflag::kernels::detail {

void* gpu_allocate(std::size_t bytes) {
  void* pointer = nullptr;
  HF_GPU_CHECK(cudaMalloc(&pointer, bytes));
  HF_GPU_CHECK(cudaMemset(pointer, 0, bytes));
  return pointer;
}

void gpu_free(void* pointer) noexcept { (void)cudaFree(pointer); }

void gpu_copy_to_device(void* destination, const void* source, std::size_t bytes) {
  HF_GPU_CHECK(cudaMemcpy(destination, source, bytes, cudaMemcpyHostToDevice));
}

void gpu_copy_to_host(void* destination, const void* source, std::size_t bytes) {
  HF_GPU_CHECK(cudaMemcpy(destination, source, bytes, cudaMemcpyDeviceToHost));
}

}  // namespace haloflag::kernels::detail
