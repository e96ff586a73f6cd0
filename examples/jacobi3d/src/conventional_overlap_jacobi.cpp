// The conventional_overlap variant, the best loop a user writes around a Comb-style exchange
// (and NVIDIA's *_overlap Jacobi): per iteration the boundary layer (the owned cells the halo
// messages send) is updated first, on a high-priority stream; once it is done the host runs the
// exchange of `out`'s halo (halo::Strategy::comb_graph, its kernels replayed as graphs, or
// comb_fused when RunSettings::conventional_strategy says so) while the interior updates on a
// second stream; then the host waits for the interior and the buffers swap roles. The exchange
// writes only ghost cells and reads only the boundary layer, and the interior reads `in`, so the
// two never touch the same cells. One Exchange per buffer, as in the conventional variant.
#include <chrono>
#include <memory>
#include <string>

#include "field_variant.hpp"
#include "haloflag/examples/exchange_per_field.hpp"
#include "overlap_sweep.hpp"

namespace jacobi3d {

namespace {

namespace hh = haloflag::halo;

template <class Real>
class ConventionalOverlapJacobi final : public FieldVariant<Real> {
 public:
  ConventionalOverlapJacobi(const Problem& problem, MPI_Comm comm, const RunSettings& settings)
      : FieldVariant<Real>(problem, comm, settings),
        exchanges_(this->problem_.geometry, this->fields_.view(0), this->fields_.view(1),
                   exchange_options(settings, comm,
                                    settings.conventional_strategy.value_or(
                                        hh::Strategy::comb_graph))),
        // After the collective set-up, so that a rank failing here cannot strand the others.
        sweep_(make_overlap_sweep<Real>(settings.backend, settings.gpu_threads)) {}

  ~ConventionalOverlapJacobi() override {
    // A run that failed in its exchange may leave an interior update running into the buffers.
    try {
      sweep_->wait_interior();
    } catch (...) {
      // the run's own error has been reported already
    }
  }

  VariantKind kind() const override { return VariantKind::conventional_overlap; }

  double run(int iterations) override {
    FieldPair<Real>& fields = this->fields_;
    const StencilKind stencil = this->problem_.stencil;
    const auto begin = std::chrono::steady_clock::now();
    for (int step = 0; step < iterations; ++step) {
      const int in = fields.current();
      const SweepFields<Real> sweep_fields = fields.sweep_fields(in);
      sweep_->enqueue_boundary(stencil, sweep_fields, this->regions_.boundary);
      sweep_->enqueue_interior(stencil, sweep_fields, this->regions_.interior);
      sweep_->wait_boundary();
      exchanges_.run(in ^ 1);  // packs the boundary layer of `out`, fills its ghosts
      sweep_->wait_interior();
      fields.advance(1);
    }
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  }

  double run_updates_only(int iterations) override {
    FieldPair<Real>& fields = this->fields_;
    const double seconds = sweep_->time_updates(this->problem_.stencil, fields.steps(),
                                                fields.current(), this->regions_, iterations);
    fields.advance(iterations);
    return seconds;
  }

  std::string launch_description() const override {
    return sweep_->describe(this->regions_) + "; " +
           exchanges_.describe(" while the interior updates");
  }

 private:
  haloflag::examples::ExchangePerField exchanges_;
  std::unique_ptr<OverlapSweep<Real>> sweep_;
};

}  // namespace

std::unique_ptr<JacobiVariant> make_conventional_overlap(const Problem& problem, MPI_Comm comm,
                                                         const RunSettings& settings) {
  return make_with_real<JacobiVariant, ConventionalOverlapJacobi>(problem.precision, problem,
                                                                  comm, settings);
}

}  // namespace jacobi3d
