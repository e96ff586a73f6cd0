// One run of a stencil example's resident kernel beside the host side of its exchange: the kernel
// is launched, this thread drives the exchange's host side (and follows the norms) meanwhile, and
// the run ends when both have. The kernel reads the exchange's memory, so a run abandoned by an
// exception aborts the exchange and waits for the kernel before either goes.
#pragma once

#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>

#include "haloflag/examples/resident_kernel.hpp"
#include "haloflag/halo/exchange.hpp"

namespace haloflag::examples {

template <class Launch>
class ResidentRun {
 public:
  // `exchange` must outlive this object: declare the ResidentRun after the Exchange it runs
  // beside. `rank` names this rank in the errors.
  ResidentRun(std::unique_ptr<ResidentKernel<Launch>> kernel, haloflag::halo::Exchange& exchange,
              int rank)
      : kernel_(std::move(kernel)), exchange_(exchange), rank_(rank) {}
  ~ResidentRun() {
    if (running_) {
      exchange_.abort("the resident Jacobi run was abandoned");
      (void)kernel_->wait();
    }
  }
  ResidentRun(const ResidentRun&) = delete;
  ResidentRun& operator=(const ResidentRun&) = delete;

  // Launches the kernel on `launch`, runs `host_side` on this thread, and waits for the kernel;
  // returns the kernel's seconds. A failure of the host side aborts the exchange (which ends every
  // wait of the kernel) and is rethrown once the kernel has ended; a kernel that stopped on a
  // failed wait while the host side succeeded throws std::runtime_error.
  double run(const Launch& launch, const std::function<void()>& host_side) {
    kernel_->launch(launch);
    running_ = true;
    std::exception_ptr host_error;
    try {
      host_side();
    } catch (...) {
      host_error = std::current_exception();
      // Ends every wait of the kernel (a failed exchange has raised the abort flag already).
      exchange_.abort("the host side of the resident Jacobi run failed");
    }
    const ResidentOutcome outcome = kernel_->wait();
    running_ = false;
    if (host_error) std::rethrow_exception(host_error);
    if (!outcome.completed) {
      throw std::runtime_error("rank " + std::to_string(rank_) +
                               ": the resident kernel stopped on a failed wait, but every "
                               "exchange finished on the host");
    }
    return outcome.seconds;
  }

  // Launches the kernel on a `launch` that leaves the exchange out (its updates alone) and waits
  // for it; returns its seconds, or throws std::runtime_error when it did not complete.
  double run_alone(const Launch& launch) {
    kernel_->launch(launch);
    running_ = true;
    const ResidentOutcome outcome = kernel_->wait();
    running_ = false;
    if (!outcome.completed) {
      throw std::runtime_error("rank " + std::to_string(rank_) +
                               ": the resident kernel's update-only run did not complete");
    }
    return outcome.seconds;
  }

  std::string describe() const { return kernel_->describe(); }

 private:
  std::unique_ptr<ResidentKernel<Launch>> kernel_;
  haloflag::halo::Exchange& exchange_;
  int rank_;
  bool running_ = false;
};

}  // namespace haloflag::examples
