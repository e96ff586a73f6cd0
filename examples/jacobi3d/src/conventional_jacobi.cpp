// The conventional variant: per iteration one update of all owned cells (in -> out, a kernel
// launch on a GPU), then a Comb-style exchange (halo::Strategy::comb_fused, or comb_graph when
// RunSettings::conventional_strategy says so) of `out`'s halo, then the buffers swap roles. One
// Exchange per buffer: an Exchange is bound to the fields it packs.
#include <array>
#include <chrono>
#include <memory>
#include <string>

#include "field_pair.hpp"
#include "haloflag/halo/exchange.hpp"
#include "jacobi_variant.hpp"
#include "owned_sweep.hpp"
#include "sweep_regions.hpp"

namespace jacobi3d {

namespace {

namespace hh = haloflag::halo;

template <class Real>
class ConventionalJacobi final : public JacobiVariant {
 public:
  ConventionalJacobi(const Problem& problem, MPI_Comm comm, const RunSettings& settings)
      : problem_(problem), fields_(problem.geometry, comm, settings.backend),
        regions_(sweep_regions(problem.geometry.subdomain(fields_.rank()).extent, kGhostWidth)),
        strategy_(settings.conventional_strategy.value_or(hh::Strategy::comb_fused)) {
    const hh::ExchangeOptions options = exchange_options(settings, comm, strategy_);
    for (int k = 0; k < 2; ++k) {
      exchanges_[k] = std::make_unique<hh::Exchange>(problem_.geometry, fields_.view(k), options);
    }
    // After the collective set-up, so that a rank failing here cannot strand the others in it.
    sweep_ = make_owned_sweep<Real>(settings.backend, settings.gpu_threads);
  }

  VariantKind kind() const override { return VariantKind::conventional; }

  void reset() override { fields_.reset(); }

  double run(int iterations) override {
    const auto begin = std::chrono::steady_clock::now();
    for (int step = 0; step < iterations; ++step) {
      const int in = fields_.current();
      sweep_->run(problem_.stencil, fields_.sweep_fields(in), regions_.owned);
      exchanges_[in ^ 1]->run();
      fields_.advance(1);
    }
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  }

  double run_updates_only(int iterations) override {
    const double seconds = sweep_->time_updates(problem_.stencil, fields_.steps(),
                                                fields_.current(), regions_, false, iterations);
    fields_.advance(iterations);
    return seconds;
  }

  hh::HostField current() const override { return fields_.download_current(); }

  std::string launch_description() const override {
    return sweep_->describe(regions_.owned) + "; exchange " +
           std::string(hh::to_string(strategy_)) + ": " + exchanges_[0]->launch_description();
  }

 private:
  Problem problem_;
  FieldPair<Real> fields_;
  SweepRegions regions_;
  hh::Strategy strategy_;
  std::array<std::unique_ptr<hh::Exchange>, 2> exchanges_;
  std::unique_ptr<OwnedSweep<Real>> sweep_;
};

}  // namespace

template <class Real>
std::unique_ptr<JacobiVariant> make_conventional(const Problem& problem, MPI_Comm comm,
                                                 const RunSettings& settings) {
  return std::make_unique<ConventionalJacobi<Real>>(problem, comm, settings);
}

template std::unique_ptr<JacobiVariant> make_conventional<float>(const Problem&, MPI_Comm,
                                                                 const RunSettings&);
template std::unique_ptr<JacobiVariant> make_conventional<double>(const Problem&, MPI_Comm,
                                                                  const RunSettings&);

}  // namespace jacobi3d
