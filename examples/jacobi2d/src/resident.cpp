// The whole exchange from the example's own kernel (halo::Strategy::embedded): one cooperative
// kernel runs every iteration, starting and finishing each exchange itself (resident_steps.hpp),
// and computes the norms. This thread follows the kernel: it sums each check's norm over the
// ranks as the kernel publishes it, and drives the exchange's MPI peers, if any, meanwhile.
#include <exception>
#include <memory>
#include <stdexcept>
#include <string>

#include "gpu_jacobi2d.hpp"
#include "haloflag/halo/exchange.hpp"
#include "haloflag/kernels/device_memory.hpp"
#include "norm_follower.hpp"
#include "plane_pair.hpp"
#include "resident_kernel.hpp"
#include "variant.hpp"

namespace jacobi2d {

namespace {

namespace hh = haloflag::halo;

template <class Real>
class ResidentJacobi final : public Variant {
 public:
  ResidentJacobi(const Problem& problem, MPI_Comm comm, const RunSettings& settings)
      : settings_(settings), fields_(problem, rank_of(comm), settings.backend),
        accumulators_(settings.backend, 2 * sizeof(double)),
        follower_(settings.backend, norm_checks(settings.max_iterations, settings.nccheck), comm,
                  settings.timeout) {
    const hh::ExchangeOptions options = exchange_options(settings, comm, hh::Strategy::embedded);
    exchange_ = std::make_unique<hh::Exchange>(problem.geometry, fields_.view(0), options);
    // The node senders place into both fields' ghost rows (collective): the kernel reads a
    // field's ghosts only in the iteration after the exchange that fills them.
    exchange_->map_fields(fields_.view(1));
    // After the collective set-up, so that a rank failing here (a grid that cannot be resident)
    // cannot strand the others in it.
    kernel_ = settings.backend == haloflag::notify::Backend::host
                  ? make_host_resident_kernel<Real>(settings.host_team_threads)
                  : make_gpu_resident_kernel<Real>(settings.gpu_threads, settings.resident_blocks,
                                                   settings.gpu_sharers,
                                                   fields_.rows() * (fields_.nx() - 2));
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

  double run(int iterations) override { return iterate(iterations, true); }
  double run_updates(int iterations) override { return iterate(iterations, false); }

  const std::vector<double>& norms() const override { return norms_; }
  std::vector<double> current_rows() const override { return widened(fields_.download_rows()); }

  std::string launch_description() const override {
    return kernel_->describe() + "; each exchange started by the kernel and split over its grid";
  }

 private:
  double iterate(int iterations, bool exchange) {
    ResidentLaunch<Real> launch{};
    for (int k = 0; k < 2; ++k) {
      launch.plans[k] = exchange_->device_plan(fields_.view(k));
      launch.planes[k] = fields_.plane(k);
    }
    launch.nx = fields_.nx();
    launch.rows = fields_.rows();
    launch.first_in = fields_.current();
    launch.iterations = iterations;
    launch.first_epoch = exchange_->epoch() + 1;
    launch.exchange = exchange;
    launch.nccheck = settings_.nccheck;
    launch.norms = static_cast<double*>(accumulators_.data());
    launch.slots = follower_.slots();

    norms_.clear();
    follower_.reset();
    kernel_->launch(launch);
    running_ = true;
    std::exception_ptr host_error;
    try {
      if (exchange) {
        exchange_->started_on_device(launch.first_epoch + static_cast<std::uint64_t>(iterations) -
                                     1);
      }
      const auto progress = [&] {
        if (exchange) (void)exchange_->progress();
      };
      for (int k = 0; k < norm_checks(iterations, settings_.nccheck); ++k) {
        norms_.push_back(follower_.reduce(k, k * settings_.nccheck, progress));
      }
      if (exchange) exchange_->finish();
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

  RunSettings settings_;
  PlanePair<Real> fields_;
  haloflag::kernels::DeviceMemory accumulators_;  // ResidentLaunch::norms
  NormFollower follower_;
  std::unique_ptr<hh::Exchange> exchange_;
  std::unique_ptr<ResidentKernel<Real>> kernel_;  // destroyed first: it reads the exchange's memory
  std::vector<double> norms_;
  bool running_ = false;
};

}  // namespace

template <class Real>
std::unique_ptr<Variant> make_resident(const Problem& problem, MPI_Comm comm,
                                       const RunSettings& settings) {
  return std::make_unique<ResidentJacobi<Real>>(problem, comm, settings);
}

template std::unique_ptr<Variant> make_resident<float>(const Problem&, MPI_Comm,
                                                       const RunSettings&);
template std::unique_ptr<Variant> make_resident<double>(const Problem&, MPI_Comm,
                                                        const RunSettings&);

}  // namespace jacobi2d
