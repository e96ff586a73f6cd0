// Kernels that nothing in the process launches, queries or loads before one case of
// resident_coexistence_mpi_test.cpp does, for the first launch of a lazily loaded module
// (CUDA_MODULE_LOADING=LAZY) beside resident kernels. The build makes one translation unit, so
// one module, per slot from resident_lazy_kernel.cu.in; GPU builds only.
#pragma once

namespace haloflag::test {

// One slot per case that launches one: each case's kernel is new to the process.
inline constexpr int kLazyKernelSlots = 4;

// Launches slot N's kernel on `stream` (a cudaStream_t or hipStream_t): one thread stores
// `value` into `*word` (device memory). Returns at once; throws NotifyError when the launch
// fails.
void launch_lazy_kernel_0(void* stream, unsigned* word, unsigned value);
void launch_lazy_kernel_1(void* stream, unsigned* word, unsigned value);
void launch_lazy_kernel_2(void* stream, unsigned* word, unsigned value);
void launch_lazy_kernel_3(void* stream, unsigned* word, unsigned value);

}  // namespace haloflag::test
