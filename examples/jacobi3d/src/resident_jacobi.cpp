// The resident variant: one kernel runs every iteration, packing and unpacking the halo itself
// through the embedded exchange (halo::Strategy::embedded), while this thread drives the
// exchange's host side: start() and finish() once per iteration, concurrently with the kernel.
#include <array>
#include <exception>
#include <memory>
#include <stdexcept>
#include <string>

#include "gpu_jacobi.hpp"
#include "haloflag/halo/device_fields.hpp"
#include "haloflag/halo/exchange.hpp"
#include "initial_field.hpp"
#include "jacobi_variant.hpp"
#include "resident_kernel.hpp"
#include "sweep_regions.hpp"

namespace jacobi3d {

namespace {

namespace hh = haloflag::halo;

int comm_rank(MPI_Comm comm) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  return rank;
}

class ResidentJacobi final : public JacobiVariant {
 public:
  ResidentJacobi(const Problem& problem, MPI_Comm comm, const RunSettings& settings)
      : problem_(problem), rank_(comm_rank(comm)),
        regions_(sweep_regions(problem.geometry.subdomain(rank_).extent, kGhostWidth)),
        extent_(problem.geometry.subdomain(rank_).field_extent),
        buffers_{hh::DeviceFields(settings.backend, extent_, 1),
                 hh::DeviceFields(settings.backend, extent_, 1)} {
    hh::ExchangeOptions options;
    options.strategy = hh::Strategy::embedded;
    options.backend = settings.backend;
    options.comm = comm;
    options.timeout = settings.timeout;
    options.transport = settings.transport;
    options.node_size = settings.node_size;
    exchange_ = std::make_unique<hh::Exchange>(problem_.geometry, buffers_[0].view(), options);
    // After the collective set-up, so that a rank failing here (a grid that cannot be resident)
    // cannot strand the others in it.
    kernel_ = settings.backend == haloflag::notify::Backend::host
                  ? make_host_resident_kernel(settings.host_team_threads)
                  : make_gpu_resident_kernel(settings);
  }

  ~ResidentJacobi() override {
    // The kernel reads the exchange's memory: it must have ended before the exchange goes.
    if (running_) {
      exchange_->abort("the resident Jacobi run was abandoned");
      (void)kernel_->wait();
    }
  }

  VariantKind kind() const override { return VariantKind::resident; }

  void reset() override {
    const hh::HostField initial = initial_field(problem_.geometry, rank_);
    for (auto& buffer : buffers_) buffer.upload(initial);
    in_ = 0;
  }

  double run(int iterations) override {
    ResidentLaunch launch{};
    const haloflag::kernels::ExchangePlan plan = exchange_->device_plan();
    for (int k = 0; k < 2; ++k) {
      launch.plans[k] = plan;
      launch.plans[k].fields = buffers_[k].view();
      launch.buffers[k] = buffers_[k].view().variables[0];
    }
    launch.stride_y = extent_[0];
    launch.stride_z = extent_[0] * extent_[1];
    launch.regions = regions_;
    launch.stencil = problem_.stencil;
    launch.first_in = in_;
    launch.iterations = iterations;
    launch.first_epoch = exchange_->epoch() + 1;

    kernel_->launch(launch);
    running_ = true;
    std::exception_ptr host_error;
    try {
      for (int step = 0; step < iterations; ++step) {
        exchange_->start();
        exchange_->finish();
      }
    } catch (...) {
      host_error = std::current_exception();
      // Ends every wait of the kernel (a failed exchange has raised the abort flag already).
      exchange_->abort("the host side of the resident Jacobi run failed");
    }
    const ResidentKernel::Outcome outcome = kernel_->wait();
    running_ = false;
    if (host_error) std::rethrow_exception(host_error);
    if (!outcome.completed) {
      throw std::runtime_error("rank " + std::to_string(rank_) +
                               ": the resident kernel stopped on a failed wait, but every "
                               "exchange finished on the host");
    }
    if (iterations % 2 != 0) in_ ^= 1;
    return outcome.seconds;
  }

  hh::HostField current() const override {
    hh::HostField field(extent_, 1);
    buffers_[in_].download(field);
    return field;
  }

  std::string launch_description() const override {
    return kernel_->describe() + "; exchange embedded in the kernel";
  }

 private:
  Problem problem_;
  int rank_;
  SweepRegions regions_;
  hh::Index3 extent_;
  std::array<hh::DeviceFields, 2> buffers_;
  std::unique_ptr<hh::Exchange> exchange_;
  std::unique_ptr<ResidentKernel> kernel_;  // destroyed first: it reads the exchange's memory
  int in_ = 0;
  bool running_ = false;
};

}  // namespace

std::unique_ptr<JacobiVariant> make_resident(const Problem& problem, MPI_Comm comm,
                                             const RunSettings& settings) {
  return std::make_unique<ResidentJacobi>(problem, comm, settings);
}

}  // namespace jacobi3d
