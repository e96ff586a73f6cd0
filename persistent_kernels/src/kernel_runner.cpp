#include "haloflag/kernels/kernel_runner.hpp"

#include <limits>

#include "runner_factories.hpp"

namespace haloflag::kernels {

std::string_view to_string(KernelOp op) {
  switch (op) {
    case KernelOp::fused_pack: return "fused_pack";
    case KernelOp::fused_unpack: return "fused_unpack";
    case KernelOp::per_message_pack: return "per_message_pack";
    case KernelOp::per_message_unpack: return "per_message_unpack";
    case KernelOp::notify_pack: return "notify_pack";
    case KernelOp::notify_unpack: return "notify_unpack";
    case KernelOp::stacked: return "stacked";
    case KernelOp::resident_pack: return "resident_pack";
    case KernelOp::resident_unpack: return "resident_unpack";
    case KernelOp::piece_grid: return "piece_grid";
    case KernelOp::resident_piece_grid: return "resident_piece_grid";
  }
  return "unknown";
}

std::unique_ptr<KernelRunner> make_kernel_runner(notify::Backend backend, const ExchangePlan& plan,
                                                 const LaunchSettings& settings,
                                                 int gpu_sharers) {
  if (backend == notify::Backend::host) return detail::make_host_kernel_runner(plan, settings);
  if (!notify::backend_compiled(backend)) {
    throw KernelError("backend " + std::string(notify::to_string(backend)) +
                      " is not compiled into this build");
  }
  return detail::make_gpu_kernel_runner(plan, settings, gpu_sharers);
}

std::int64_t message_block_capacity(notify::Backend backend, bool resident,
                                    const LaunchSettings& settings, int gpu_sharers) {
  if (backend == notify::Backend::host) return std::numeric_limits<std::int64_t>::max();
  return detail::gpu_message_block_capacity(resident, settings, gpu_sharers);
}

}  // namespace haloflag::kernels
