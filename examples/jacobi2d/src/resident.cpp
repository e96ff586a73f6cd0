// The whole exchange from the example's own kernel (halo::Strategy::embedded): one cooperative
// kernel runs every iteration, starting and finishing each exchange itself (resident_steps.hpp),
// and computes the norms. This thread follows the kernel: it sums each check's norm over the
// ranks as the kernel publishes it, and drives the exchange's MPI peers, if any, meanwhile.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "gpu_jacobi2d.hpp"
#include "haloflag/examples/host_resident_kernel.hpp"
#include "haloflag/examples/resident_run.hpp"
#include "haloflag/examples/variant_settings.hpp"
#include "haloflag/halo/exchange.hpp"
#include "resident_launch.hpp"
#include "resident_steps.hpp"
#include "row_variant.hpp"

namespace jacobi2d {

namespace {

namespace hh = haloflag::halo;

template <class Real>
class ResidentJacobi final : public RowVariant<Real> {
 public:
  ResidentJacobi(const Problem& problem, MPI_Comm comm, const RunSettings& settings)
      : RowVariant<Real>(problem, comm, settings, 2 * sizeof(double)) {
    const PlanePair<Real>& fields = this->fields_;
    const hh::ExchangeOptions options = exchange_options(settings, comm, hh::Strategy::embedded);
    exchange_ = std::make_unique<hh::Exchange>(problem.geometry, fields.view(0), options);
    // The node senders place into both fields' ghost rows (collective): the kernel reads a
    // field's ghosts only in the iteration after the exchange that fills them.
    exchange_->map_fields(fields.view(1));
    // After the collective set-up, so that a rank failing here (a grid that cannot be resident)
    // cannot strand the others in it.
    resident_.emplace(settings.backend == haloflag::notify::Backend::host
                          ? haloflag::examples::host_resident_kernel<ResidentLaunch<Real>>(
                                settings.host_team_threads, HostResidentSteps{}, "--host-threads")
                          : GpuSide<Real>::resident_kernel(settings.gpu_threads,
                                                           settings.resident_blocks,
                                                           settings.gpu_sharers,
                                                           fields.rows() * (fields.nx() - 2)),
                      *exchange_, fields.rank());
  }

  VariantKind kind() const override { return VariantKind::resident; }

  std::string launch_description() const override {
    return resident_->describe() +
           "; each exchange started by the kernel and split over its grid, " +
           haloflag::examples::next_exchange_route(this->settings_.next_exchange_told);
  }

 private:
  double iterate(int iterations, bool exchange) override {
    PlanePair<Real>& fields = this->fields_;
    ResidentLaunch<Real> launch{};
    for (int k = 0; k < 2; ++k) {
      launch.plans[k] = exchange_->device_plan(fields.view(k));
      launch.planes[k] = fields.plane(k);
    }
    launch.nx = fields.nx();
    launch.rows = fields.rows();
    launch.first_in = fields.current();
    launch.iterations = iterations;
    launch.first_epoch = exchange_->epoch() + 1;
    launch.exchange = exchange;
    launch.tell_next = this->settings_.next_exchange_told;
    launch.nccheck = this->settings_.nccheck;
    launch.norms = static_cast<double*>(this->accumulators_.data());
    launch.slots = this->follower_.slots();

    const double seconds = resident_->run(launch, [&] {
      if (exchange) {
        exchange_->started_on_device(launch.first_epoch + static_cast<std::uint64_t>(iterations) -
                                     1);
      }
      this->follow_norms(iterations, [&] {
        if (exchange) (void)exchange_->progress();
      });
      if (exchange) exchange_->finish();
    });
    fields.advance(iterations);
    return seconds;
  }

  std::unique_ptr<hh::Exchange> exchange_;
  // Destroyed first: the kernel reads the exchange's memory.
  std::optional<haloflag::examples::ResidentRun<ResidentLaunch<Real>>> resident_;
};

}  // namespace

std::unique_ptr<Variant> make_resident(const Problem& problem, MPI_Comm comm,
                                       const RunSettings& settings) {
  return make_with_real<Variant, ResidentJacobi>(problem.precision, problem, comm, settings);
}

}  // namespace jacobi2d
