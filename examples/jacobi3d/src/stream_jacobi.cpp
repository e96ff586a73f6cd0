// The stream variant: per iteration, ordered on one stream (a GPU stream, or a HostQueue on the
// host backend), the boundary layer's update (in -> out), the start of the exchange of `out`'s
// halo, the interior's update while the exchange's resident kernels (halo::Strategy::resident)
// pack and unpack, and the wait for the exchange: no host synchronisation until the run's end.
// One Exchange serves both buffers (StreamOrderedExchange).
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include "field_variant.hpp"
#include "gpu_jacobi.hpp"
#include "haloflag/examples/resident_grid_size.hpp"
#include "haloflag/examples/stream_ordered_exchange.hpp"
#include "owned_sweep.hpp"

namespace jacobi3d {

namespace {

// The stream variant's settings for a rank of `cells`. Where the update alone fills every thread
// the GPU holds at the resident grid's share of cells each, the exchange's resident piece grid
// (by default a block per piece in half the room its other kernels leave) would hold block slots
// the interior update wants, so it takes one block per multiprocessor (this rank's share of
// them) unless --node-blocks is set (README, "The stream variant's piece grid").
RunSettings stream_settings(const RunSettings& settings, std::int64_t cells) {
  if (settings.backend == haloflag::notify::Backend::host || settings.node_blocks > 0) {
    return settings;
  }
  const GpuRoom room = gpu_room();
  if (cells < room.threads() * haloflag::examples::kResidentCellsPerThread) return settings;
  RunSettings chosen = settings;
  chosen.node_blocks = std::max(room.multiprocessors / std::max(settings.gpu_sharers, 1), 1);
  return chosen;
}

template <class Real>
class StreamJacobi final : public FieldVariant<Real> {
 public:
  StreamJacobi(const Problem& problem, MPI_Comm comm, const RunSettings& settings)
      : FieldVariant<Real>(problem, comm, settings),
        exchange_(this->problem_.geometry, this->fields_.view(0), this->fields_.view(1), comm,
                  stream_settings(settings, this->regions_.owned.cells())),
        // After the collective set-up, so that a rank failing here cannot strand the others.
        sweep_(make_owned_sweep<Real>(settings.backend, settings.gpu_threads)) {}

  ~StreamJacobi() override {
    exchange_.release_abandoned_run([&] { sweep_->synchronize(); });
  }

  VariantKind kind() const override { return VariantKind::stream; }

  double run(int iterations) override {
    FieldPair<Real>& fields = this->fields_;
    const StencilKind stencil = this->problem_.stencil;
    const SweepRegions& regions = this->regions_;
    const auto begin = std::chrono::steady_clock::now();
    exchange_.begin_run();
    for (int step = 0; step < iterations; ++step) {
      const int in = fields.current();
      const SweepFields<Real> step_fields = fields.sweep_fields(in);
      // The boundary layer first: the exchange packs it once the stream reaches the start, while
      // the interior, enqueued behind the start, updates.
      exchange_.step(
          sweep_->stream(), fields.view(in ^ 1),
          [&] { sweep_->enqueue_boundary(stencil, step_fields, regions.boundary); },
          [&] { sweep_->enqueue(stencil, step_fields, regions.interior); });
      fields.advance(1);
    }
    exchange_.end_run(true, [&] { sweep_->synchronize(); });
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  }

  double run_updates_only(int iterations) override {
    // The exchange's resident kernels stay idle meanwhile (no start), as between two runs.
    FieldPair<Real>& fields = this->fields_;
    const double seconds = sweep_->time_updates(this->problem_.stencil, fields.steps(),
                                                fields.current(), this->regions_, true,
                                                iterations);
    fields.advance(iterations);
    return seconds;
  }

  std::string launch_description() const override {
    return sweep_->describe(this->regions_.interior) +
           " for the interior, after the boundary layer and the exchange's start; " +
           exchange_.describe();
  }

 private:
  haloflag::examples::StreamOrderedExchange exchange_;
  std::unique_ptr<OwnedSweep<Real>> sweep_;  // destroyed first: its stream waits on the exchange
};

}  // namespace

std::unique_ptr<JacobiVariant> make_stream(const Problem& problem, MPI_Comm comm,
                                           const RunSettings& settings) {
  return make_with_real<JacobiVariant, StreamJacobi>(problem.precision, problem, comm, settings);
}

}  // namespace jacobi3d
