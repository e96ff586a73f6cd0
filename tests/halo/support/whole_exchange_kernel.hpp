// A "user kernel" for the tests of the whole exchange (haloflag/kernels/embedded_exchange.hpp):
// it runs exchanges first .. first + count - 1 of an embedded Exchange, every block calling
// embedded_exchange_start and embedded_exchange_finish between grid barriers, with no host call
// per exchange. It leaves the fields' own cells alone: the caller fills them before and checks
// the ghost cells after. On a GPU backend a cooperative grid (whole_exchange_kernel.cu, built
// with a GPU backend only), on the host backend a team of threads. It ends once its exchanges are
// done or a wait failed (every wait has the Exchange's deadline).
#pragma once

#include <cstdint>
#include <memory>

#include "haloflag/kernels/device_plan.hpp"
#include "haloflag/notify/backend.hpp"

namespace haloflag::test {

class WholeExchangeKernel {
 public:
  // Starts the kernel; throws std::runtime_error when it cannot (a GPU backend not built in, a
  // grid that cannot be resident).
  WholeExchangeKernel(notify::Backend backend, const kernels::DevicePlan& plan,
                      std::uint64_t first, std::uint32_t count);
  ~WholeExchangeKernel();  // waits for the kernel
  WholeExchangeKernel(const WholeExchangeKernel&) = delete;
  WholeExchangeKernel& operator=(const WholeExchangeKernel&) = delete;

  // Waits for the kernel to end: true when every block completed every exchange.
  bool wait();

  // Where the kernel runs, and what waiting for it means.
  class Runner {
   public:
    virtual ~Runner() = default;
    virtual bool wait() = 0;
  };

 private:
  std::unique_ptr<Runner> runner_;
};

namespace detail {
// whole_exchange_kernel.cu: the cooperative grid on the current GPU.
std::unique_ptr<WholeExchangeKernel::Runner> launch_gpu_whole_exchanges(
    const kernels::DevicePlan& plan, std::uint64_t first, std::uint32_t count);
}  // namespace detail

}  // namespace haloflag::test
