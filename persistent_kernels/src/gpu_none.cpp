// Host-only builds: the GPU entry points exist and say there is no GPU backend.
#include "gpu_memory_ops.hpp"
#include "peer_memory_ops.hpp"
#include "runner_factories.hpp"

namespace haloflag::kernels::detail {
namespace {

[[noreturn]] void no_gpu_backend(const char* what) {
  throw KernelError(std::string(what) + ": this build has no GPU backend (HALOFLAG_GPU=none)");
}

}  // namespace

void* gpu_allocate(std::size_t) { no_gpu_backend("device allocation"); }
void gpu_free(void*) noexcept {}
void gpu_copy_to_device(void*, const void*, std::size_t) { no_gpu_backend("device copy"); }
void gpu_copy_to_host(void*, const void*, std::size_t) { no_gpu_backend("device copy"); }

void gpu_ipc_export(const void*, std::byte*) { no_gpu_backend("IPC handle"); }
void* gpu_ipc_open(const std::byte*) { no_gpu_backend("IPC handle"); }
const void* gpu_allocation_base(const void*) { no_gpu_backend("allocation lookup"); }
bool gpu_native_peer_atomics(const char*) { return false; }
void gpu_ipc_close(void*) noexcept {}
void* gpu_host_register(void*, std::size_t) { no_gpu_backend("host registration"); }
void gpu_host_unregister(void*) noexcept {}

std::unique_ptr<KernelRunner> make_gpu_kernel_runner(const ExchangePlan&, const LaunchSettings&,
                                                     int) {
  no_gpu_backend("GPU kernel runner");
}

std::int64_t gpu_message_block_capacity(bool, const LaunchSettings&, int) {
  no_gpu_backend("GPU block capacity");
}

}  // namespace haloflag::kernels::detail
