// The resident variant: one kernel runs every iteration, packing and unpacking the halo itself
// through the embedded exchange (halo::Strategy::embedded). With every rank's peers over node or
// self the kernel starts each exchange itself and this thread only follows it to the last one;
// else this thread drives the exchange's host side, start() and finish() once per iteration,
// concurrently with the kernel.
#include <mpi.h>

#include <cstdint>
#include <exception>
#include <memory>
#include <optional>
#include <string>

#include "field_variant.hpp"
#include "gpu_jacobi.hpp"
#include "haloflag/examples/host_resident_kernel.hpp"
#include "haloflag/examples/resident_boundary_order.hpp"
#include "haloflag/examples/agreed_piece_bytes.hpp"
#include "haloflag/examples/resident_run.hpp"
#include "haloflag/examples/variant_settings.hpp"
#include "haloflag/halo/exchange.hpp"
#include "haloflag/kernels/device_memory.hpp"
#include "haloflag/kernels/embedded_exchange.hpp"
#include "interior_by_counter.hpp"
#include "resident_iterations.hpp"
#include "resident_launch.hpp"

namespace jacobi3d {

namespace {

namespace hh = haloflag::halo;

template <class Real>
class ResidentJacobi final : public FieldVariant<Real> {
 public:
  ResidentJacobi(const Problem& problem, MPI_Comm comm, const RunSettings& settings)
      : FieldVariant<Real>(problem, comm, settings) {
    // The kernel first: its grid's size sets the pieces. A rank whose grid cannot be resident
    // fails only after the collective set-up below, so that it cannot strand the others in it.
    std::unique_ptr<ResidentKernel<Real>> kernel;
    std::exception_ptr not_resident;
    try {
      kernel = settings.backend == haloflag::notify::Backend::host
                   ? haloflag::examples::host_resident_kernel<ResidentLaunch<Real>>(
                         settings.host_team_threads, HostResidentIterations{})
                   : GpuSide<Real>::resident_kernel(settings, this->regions_.owned.cells());
    } catch (...) {
      not_resident = std::current_exception();
    }
    const int blocks = kernel ? kernel->blocks() : 0;
    const int block_threads =
        settings.backend == haloflag::notify::Backend::host ? 1 : settings.gpu_threads;
    const bool wants_update = settings.sends_update_cells.value_or(
        haloflag::examples::sends_update_boundary(this->regions_.owned.cells(),
                                                  std::int64_t{blocks} * block_threads,
                                                  settings.interior_by_counter));
    hh::ExchangeOptions options = exchange_options(settings, comm, hh::Strategy::embedded);
    if (settings.node_piece_bytes == 0) {
      options.advanced.launch.node_piece_bytes = haloflag::examples::agreed_piece_bytes(
          comm, this->problem_.geometry, this->fields_.rank(), blocks,
          wants_update ? block_threads * int{sizeof(Real)} : 0,
          options.advanced.launch.node_piece_bytes);
    }
    piece_bytes_ = options.advanced.launch.node_piece_bytes;
    exchange_ =
        std::make_unique<hh::Exchange>(this->problem_.geometry, this->fields_.view(0), options);
    // The whole exchange started by the kernel, over every transport (finish() drives the MPI
    // peers beside the kernel).
    whole_exchange_ = exchange_->can_start_on_device();
    tell_next_ = settings.next_exchange_told;
    if (settings.interior_by_counter) {
      interior_counter_ = haloflag::kernels::DeviceMemory(settings.backend, sizeof(std::uint64_t));
    }
    // As the kernels are built: for the whole exchange, without lines (resident_iterations.hpp).
    // Each rank decides alone: the order of its update and its sends is its own.
    sends_update_ = wants_update && whole_exchange_ &&
                    haloflag::kernels::embedded_lines_build(exchange_->device_plan(
                        this->fields_.view(0))) == haloflag::kernels::LinesCode::absent;
    // The node senders place into both buffers' ghost cells (collective): the kernel reads a
    // buffer's ghosts only in the iteration after the exchange that fills them.
    exchange_->map_fields(this->fields_.view(1));
    if (whole_exchange_ && settings.interior_by_counter) {
      spared_blocks_ = spared_send_blocks(
          this->regions_.interior, static_cast<std::uint32_t>(blocks),
          static_cast<std::uint32_t>(block_threads),
          haloflag::kernels::embedded_send_blocks(exchange_->device_plan(this->fields_.view(0)),
                                                  static_cast<std::uint32_t>(blocks)));
    }
    if (not_resident) std::rethrow_exception(not_resident);
    resident_.emplace(std::move(kernel), *exchange_, this->fields_.rank());
  }

  VariantKind kind() const override { return VariantKind::resident; }

  double run(int iterations) override {
    const ResidentLaunch<Real> launch = make_launch(iterations, false);
    const double seconds = resident_->run(launch, [&] {
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
    });
    this->fields_.advance(iterations);
    return seconds;
  }

  double run_updates_only(int iterations) override {
    // The same kernel with the exchange steps left out: the Exchange is not involved, and its
    // epoch stays where it is.
    const double seconds = resident_->run_alone(make_launch(iterations, true));
    this->fields_.advance(iterations);
    return seconds;
  }

  std::string launch_description() const override {
    if (!whole_exchange_) {
      return resident_->describe() +
             "; each message packed and unpacked by one block of the kernel";
    }
    return resident_->describe() +
           "; each exchange started by the kernel and split over its grid in node pieces of " +
           std::to_string(piece_bytes_) + " B" +
           (sends_update_ ? ", its sends updating the boundary cells they send, " : ", ") +
           haloflag::examples::next_exchange_route(tell_next_) + interior_description();
  }

 private:
  // How the interior is shared out among the blocks, for the launch's description.
  std::string interior_description() const {
    if (interior_counter_.bytes() == 0) return "; the interior dealt out by block";
    if (spared_blocks_ == 0) return "; the interior's last rounds taken from a counter";
    return "; the interior swept by every block but the " + std::to_string(spared_blocks_) +
           " that move send pieces";
  }

  ResidentLaunch<Real> make_launch(int iterations, bool updates_only) const {
    const FieldPair<Real>& fields = this->fields_;
    ResidentLaunch<Real> launch{};
    for (int k = 0; k < 2; ++k) {
      launch.plans[k] = exchange_->device_plan(fields.view(k));
      launch.buffers[k] = fields.buffer(k);
    }
    launch.stride_y = fields.extent()[0];
    launch.stride_z = fields.extent()[0] * fields.extent()[1];
    launch.regions = this->regions_;
    launch.stencil = this->problem_.stencil;
    launch.first_in = fields.current();
    launch.iterations = iterations;
    launch.first_epoch = exchange_->epoch() + 1;
    launch.whole_exchange = whole_exchange_;
    launch.updates_only = updates_only;
    launch.tell_next = tell_next_;
    launch.sends_update_cells = sends_update_;
    launch.interior_counter =
        interior_counter_.bytes() > 0 ? static_cast<std::uint64_t*>(interior_counter_.data())
                                     : nullptr;
    // Without the exchange no block moves a piece: the update alone is timed over every block.
    launch.spared_blocks = updates_only ? 0 : spared_blocks_;
    return launch;
  }

  std::unique_ptr<hh::Exchange> exchange_;
  // Destroyed first: the kernel reads the exchange's memory.
  std::optional<haloflag::examples::ResidentRun<ResidentLaunch<Real>>> resident_;
  // Every rank's peers over node or self (ResidentLaunch::whole_exchange).
  bool whole_exchange_ = false;
  bool tell_next_ = false;  // RunSettings::next_exchange_told
  bool sends_update_ = false;  // RunSettings::sends_update_cells
  int piece_bytes_ = 0;     // the exchange's node pieces (agreed_piece_bytes)
  std::uint32_t spared_blocks_ = 0;  // ResidentLaunch::spared_blocks of the exchange's runs
  // ResidentLaunch::interior_counter; empty where RunSettings::interior_by_counter is off.
  haloflag::kernels::DeviceMemory interior_counter_;
};

}  // namespace

std::unique_ptr<JacobiVariant> make_resident(const Problem& problem, MPI_Comm comm,
                                             const RunSettings& settings) {
  return make_with_real<JacobiVariant, ResidentJacobi>(problem.precision, problem, comm, settings);
}

}  // namespace jacobi3d
