// The resident variant: one kernel runs every iteration, packing and unpacking the halo itself
// through the embedded exchange (halo::Strategy::embedded). With every rank's peers over node or
// self the kernel starts each exchange itself and this thread only follows it to the last one;
// else this thread drives the exchange's host side, start() and finish() once per iteration,
// concurrently with the kernel.
#include <algorithm>
#include <array>
#include <cstddef>
#include <exception>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "field_pair.hpp"
#include "gpu_jacobi.hpp"
#include "haloflag/halo/exchange.hpp"
#include "jacobi_variant.hpp"
#include "resident_kernel.hpp"
#include "sweep_regions.hpp"

namespace jacobi3d {

namespace {

namespace hh = haloflag::halo;

template <class Real>
class ResidentJacobi final : public JacobiVariant {
 public:
  ResidentJacobi(const Problem& problem, MPI_Comm comm, const RunSettings& settings)
      : problem_(problem), fields_(problem.geometry, comm, settings.backend),
        regions_(sweep_regions(problem.geometry.subdomain(fields_.rank()).extent, kGhostWidth)) {
    const hh::ExchangeOptions options = exchange_options(settings, comm, hh::Strategy::embedded);
    exchange_ = std::make_unique<hh::Exchange>(problem_.geometry, fields_.view(0), options);
    // The whole exchange started by the kernel, over every transport (finish() drives the MPI
    // peers beside the kernel).
    whole_exchange_ = exchange_->can_start_on_device();
    // The node senders place into both buffers' ghost cells (collective): the kernel reads a
    // buffer's ghosts only in the iteration after the exchange that fills them.
    exchange_->map_fields(fields_.view(1));
    // After the collective set-up, so that a rank failing here (a grid that cannot be resident)
    // cannot strand the others in it.
    kernel_ = settings.backend == haloflag::notify::Backend::host
                  ? make_host_resident_kernel<Real>(settings.host_team_threads)
                  : make_gpu_resident_kernel<Real>(settings, regions_.owned.cells());
  }

  ~ResidentJacobi() override {
    // The kernel reads the exchange's memory: it must have ended before the exchange goes.
    if (running_) {
      exchange_->abort("the resident Jacobi run was abandoned");
      (void)kernel_->wait();
    }
  }

  VariantKind kind() const override { return VariantKind::resident; }

  void reset() override { fields_.reset(); }

  double run(int iterations) override {
    const ResidentLaunch<Real> launch = make_launch(iterations, false);
    kernel_->launch(launch);
    running_ = true;
    std::exception_ptr host_error;
    try {
      if (whole_exchange_) {
        // The kernel starts every exchange itself: the host only follows it to the last one.
        exchange_->started_on_device(launch.first_epoch + static_cast<std::uint64_t>(iterations) -
                                     1);
        exchange_->finish();
      } else {
        for (int step = 0; step < iterations; ++step) {
          exchange_->start();
          exchange_->finish();
        }
      }
    } catch (...) {
      host_error = std::current_exception();
      // Ends every wait of the kernel (a failed exchange has raised the abort flag already).
      exchange_->abort("the host side of the resident Jacobi run failed");
    }
    const ResidentOutcome outcome = kernel_->wait();
    running_ = false;
    if (host_error) std::rethrow_exception(host_error);
    if (!outcome.completed) {
      throw std::runtime_error("rank " + std::to_string(fields_.rank()) +
                               ": the resident kernel stopped on a failed wait, but every "
                               "exchange finished on the host");
    }
    fields_.advance(iterations);
    return outcome.seconds;
  }

  double run_updates_only(int iterations) override {
    // The same kernel with the exchange steps left out: the Exchange is not involved, and its
    // epoch stays where it is.
    kernel_->launch(make_launch(iterations, true));
    running_ = true;
    const ResidentOutcome outcome = kernel_->wait();
    running_ = false;
    if (!outcome.completed) {
      throw std::runtime_error("rank " + std::to_string(fields_.rank()) +
                               ": the resident kernel's update-only run did not complete");
    }
    fields_.advance(iterations);
    return outcome.seconds;
  }

  hh::HostField current() const override { return fields_.download_current(); }

  std::string launch_description() const override {
    return kernel_->describe() +
           (whole_exchange_ ? "; each exchange started by the kernel and split over its grid"
                            : "; each message packed and unpacked by one block of the kernel");
  }

 private:
  ResidentLaunch<Real> make_launch(int iterations, bool updates_only) const {
    ResidentLaunch<Real> launch{};
    for (int k = 0; k < 2; ++k) {
      launch.plans[k] = exchange_->device_plan(fields_.view(k));
      launch.buffers[k] = fields_.buffer(k);
    }
    launch.stride_y = fields_.extent()[0];
    launch.stride_z = fields_.extent()[0] * fields_.extent()[1];
    launch.regions = regions_;
    launch.stencil = problem_.stencil;
    launch.first_in = fields_.current();
    launch.iterations = iterations;
    launch.first_epoch = exchange_->epoch() + 1;
    launch.whole_exchange = whole_exchange_;
    launch.updates_only = updates_only;
    return launch;
  }

  Problem problem_;
  FieldPair<Real> fields_;
  SweepRegions regions_;
  std::unique_ptr<hh::Exchange> exchange_;
  std::unique_ptr<ResidentKernel<Real>> kernel_;  // destroyed first: it reads the exchange's memory
  bool running_ = false;
  // Every rank's peers over node or self (ResidentLaunch::whole_exchange).
  bool whole_exchange_ = false;
};

}  // namespace

template <class Real>
std::unique_ptr<JacobiVariant> make_resident(const Problem& problem, MPI_Comm comm,
                                             const RunSettings& settings) {
  return std::make_unique<ResidentJacobi<Real>>(problem, comm, settings);
}

template std::unique_ptr<JacobiVariant> make_resident<float>(const Problem&, MPI_Comm,
                                                             const RunSettings&);
template std::unique_ptr<JacobiVariant> make_resident<double>(const Problem&, MPI_Comm,
                                                              const RunSettings&);

}  // namespace jacobi3d
