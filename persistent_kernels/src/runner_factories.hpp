// Internal: the runner factories of each backend, chosen by make_kernel_runner.
#pragma once

#include <cstdint>
#include <memory>

#include "haloflag/kernels/kernel_runner.hpp"

namespace haloflag::kernels::detail {

std::unique_ptr<KernelRunner> make_host_kernel_runner(const ExchangePlan& plan,
                                                      const LaunchSettings& settings);
// Throws KernelError in builds without a GPU backend.
std::unique_ptr<KernelRunner> make_gpu_kernel_runner(const ExchangePlan& plan,
                                                     const LaunchSettings& settings,
                                                     int gpu_sharers);
// message_block_capacity() on the current GPU; throws KernelError without a GPU backend.
std::int64_t gpu_message_block_capacity(bool resident, const LaunchSettings& settings,
                                        int gpu_sharers);

}  // namespace haloflag::kernels::detail
