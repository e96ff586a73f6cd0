// The whole exchange from the example's own kernel (halo::Strategy::embedded): one cooperative
// kernel runs every iteration, starting and finishing each exchange itself (resident_steps.hpp),
// and computes the norms. This thread follows the kernel: it sums each check's norm over the
// ranks as the kernel publishes it, and drives the exchange's MPI peers, if any, meanwhile.
#include <cstdint>
#include <exception>
#include <memory>
#include <optional>
#include <string>

#include "gpu_jacobi2d.hpp"
#include "haloflag/examples/agreed_piece_bytes.hpp"
#include "haloflag/examples/host_resident_kernel.hpp"
#include "haloflag/examples/resident_boundary_order.hpp"
#include "haloflag/examples/resident_run.hpp"
#include "haloflag/examples/variant_settings.hpp"
#include "haloflag/halo/exchange.hpp"
#include "haloflag/kernels/embedded_exchange.hpp"
#include "interior_deal.hpp"
#include "resident_launch.hpp"
#include "resident_steps.hpp"
#include "row_sweep.hpp"
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
    const bool host = settings.backend == haloflag::notify::Backend::host;
    const std::int64_t cells = fields.rows() * (fields.nx() - 2);
    // The kernel first: its grid's size sets the pieces. A rank whose grid cannot be resident
    // fails only after the collective set-up below, so that it cannot strand the others in it.
    std::unique_ptr<ResidentKernel<Real>> kernel;
    std::exception_ptr not_resident;
    try {
      kernel = host ? haloflag::examples::host_resident_kernel<ResidentLaunch<Real>>(
                          settings.host_team_threads, HostResidentSteps{}, "--host-threads")
                    : GpuSide<Real>::resident_kernel(settings.gpu_threads,
                                                     settings.resident_blocks,
                                                     settings.gpu_sharers, cells);
    } catch (...) {
      not_resident = std::current_exception();
    }
    const int blocks = kernel ? kernel->blocks() : 0;
    const int block_threads = host ? 1 : settings.gpu_threads;
    const std::int64_t members = std::int64_t{blocks} * block_threads;
    // With one row, that row is in both sends, and its changes would count twice in the norm.
    // Each rank decides alone: the order of its update and its sends is its own.
    const bool wants_update =
        fields.rows() >= 2 &&
        settings.sends_update_cells.value_or(haloflag::examples::sends_update_boundary(
            cells, members, false));
    hh::ExchangeOptions options = exchange_options(settings, comm, hh::Strategy::embedded);
    if (settings.node_piece_bytes == 0) {
      options.advanced.launch.node_piece_bytes = haloflag::examples::agreed_piece_bytes(
          comm, problem.geometry, fields.rank(), blocks,
          wants_update ? block_threads * int{sizeof(Real)} : 0,
          options.advanced.launch.node_piece_bytes);
    }
    piece_bytes_ = options.advanced.launch.node_piece_bytes;
    exchange_ = std::make_unique<hh::Exchange>(problem.geometry, fields.view(0), options);
    // As the kernels are built: without lines (resident_steps.hpp).
    sends_update_ = wants_update &&
                    haloflag::kernels::embedded_lines_build(exchange_->device_plan(
                        fields.view(0))) == haloflag::kernels::LinesCode::absent;
    // The node senders place into both fields' ghost rows (collective): the kernel reads a
    // field's ghosts only in the iteration after the exchange that fills them.
    exchange_->map_fields(fields.view(1));
    const std::int64_t send_blocks = haloflag::kernels::embedded_send_blocks(
        exchange_->device_plan(fields.view(0)), static_cast<std::uint32_t>(blocks));
    interior_ = interior_deal(fields.step(0), interior_rows(fields.rows()), members, block_threads,
                              send_blocks);
    spared_blocks_ = interior_.members < members ? send_blocks : 0;
    // Without the exchange no block moves a piece: the update alone is timed over every member.
    update_alone_ = interior_deal(fields.step(0), interior_rows(fields.rows()), members,
                                  block_threads, 0);
    if (not_resident) std::rethrow_exception(not_resident);
    resident_.emplace(std::move(kernel), *exchange_, fields.rank());
  }

  VariantKind kind() const override { return VariantKind::resident; }

  std::string launch_description() const override {
    return resident_->describe() +
           "; each exchange started by the kernel and split over its grid in node pieces of " +
           std::to_string(piece_bytes_) + " B" +
           (sends_update_ ? ", its sends updating the rows they send, " : ", ") +
           haloflag::examples::next_exchange_route(this->settings_.next_exchange_told) +
           (spared_blocks_ > 0 ? "; the interior dealt to every block but the " +
                                     std::to_string(spared_blocks_) + " that move send pieces"
                               : "");
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
    launch.sends_update_cells = sends_update_;
    launch.interior = exchange ? interior_ : update_alone_;
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
  bool sends_update_ = false;  // ResidentLaunch::sends_update_cells
  int piece_bytes_ = 0;        // the exchange's node pieces (agreed_piece_bytes)
  // The blocks that move send pieces, where the interior's deal leaves them out (interior_deal).
  std::int64_t spared_blocks_ = 0;
  InteriorDeal interior_{};      // ResidentLaunch::interior
  InteriorDeal update_alone_{};  // the same without the exchange
  // Destroyed first: the kernel reads the exchange's memory.
  std::optional<haloflag::examples::ResidentRun<ResidentLaunch<Real>>> resident_;
};

}  // namespace

std::unique_ptr<Variant> make_resident(const Problem& problem, MPI_Comm comm,
                                       const RunSettings& settings) {
  return make_with_real<Variant, ResidentJacobi>(problem.precision, problem, comm, settings);
}

}  // namespace jacobi2d
