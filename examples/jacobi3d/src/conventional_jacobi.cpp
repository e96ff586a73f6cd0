// The conventional variant: per iteration one update of all owned cells (in -> out, a kernel
// launch on a GPU), then a Comb-style exchange (halo::Strategy::comb_fused, or comb_graph when
// RunSettings::conventional_strategy says so) of `out`'s halo, then the buffers swap roles. One
// Exchange per buffer (ExchangePerField).
#include <chrono>
#include <memory>
#include <string>

#include "field_variant.hpp"
#include "haloflag/examples/exchange_per_field.hpp"
#include "owned_sweep.hpp"

namespace jacobi3d {

namespace {

namespace hh = haloflag::halo;

template <class Real>
class ConventionalJacobi final : public FieldVariant<Real> {
 public:
  ConventionalJacobi(const Problem& problem, MPI_Comm comm, const RunSettings& settings)
      : FieldVariant<Real>(problem, comm, settings),
        exchanges_(this->problem_.geometry, this->fields_.view(0), this->fields_.view(1),
                   exchange_options(settings, comm,
                                    settings.conventional_strategy.value_or(
                                        hh::Strategy::comb_fused))),
        // After the collective set-up, so that a rank failing here cannot strand the others.
        sweep_(make_owned_sweep<Real>(settings.backend, settings.gpu_threads)) {}

  VariantKind kind() const override { return VariantKind::conventional; }

  double run(int iterations) override {
    FieldPair<Real>& fields = this->fields_;
    const auto begin = std::chrono::steady_clock::now();
    for (int step = 0; step < iterations; ++step) {
      const int in = fields.current();
      sweep_->run(this->problem_.stencil, fields.sweep_fields(in), this->regions_.owned);
      exchanges_.run(in ^ 1);
      fields.advance(1);
    }
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  }

  double run_updates_only(int iterations) override {
    FieldPair<Real>& fields = this->fields_;
    const double seconds = sweep_->time_updates(this->problem_.stencil, fields.steps(),
                                                fields.current(), this->regions_, false,
                                                iterations);
    fields.advance(iterations);
    return seconds;
  }

  std::string launch_description() const override {
    return sweep_->describe(this->regions_.owned) + "; " + exchanges_.describe();
  }

 private:
  haloflag::examples::ExchangePerField exchanges_;
  std::unique_ptr<OwnedSweep<Real>> sweep_;
};

}  // namespace

std::unique_ptr<JacobiVariant> make_conventional(const Problem& problem, MPI_Comm comm,
                                                 const RunSettings& settings) {
  return make_with_real<JacobiVariant, ConventionalJacobi>(problem.precision, problem, comm,
                                                           settings);
}

}  // namespace jacobi3d
