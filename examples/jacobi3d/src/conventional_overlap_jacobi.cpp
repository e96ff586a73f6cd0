// The conventional_overlap variant, the best loop a user writes around a Comb-style exchange
// (and NVIDIA's *_overlap Jacobi): per iteration the boundary layer (the owned cells the halo
// messages send) is updated first, on a high-priority stream; once it is done the host runs the
// exchange of `out`'s halo (halo::Strategy::comb_graph, its kernels replayed as graphs, or
// comb_fused when RunSettings::conventional_strategy says so) while the interior updates on a
// second stream; then the host waits for the interior and the buffers swap roles. The exchange
// writes only ghost cells and reads only the boundary layer, and the interior reads `in`, so the
// two never touch the same cells. One Exchange per buffer, as in the conventional variant.
#include <array>
#include <chrono>
#include <memory>
#include <string>

#include "field_pair.hpp"
#include "haloflag/halo/exchange.hpp"
#include "jacobi_variant.hpp"
#include "overlap_sweep.hpp"
#include "sweep_regions.hpp"

namespace jacobi3d {

namespace {

namespace hh = haloflag::halo;

template <class Real>
class ConventionalOverlapJacobi final : public JacobiVariant {
 public:
  ConventionalOverlapJacobi(const Problem& problem, MPI_Comm comm, const RunSettings& settings)
      : problem_(problem), fields_(problem.geometry, comm, settings.backend),
        regions_(sweep_regions(problem.geometry.subdomain(fields_.rank()).extent, kGhostWidth)),
        strategy_(settings.conventional_strategy.value_or(hh::Strategy::comb_graph)) {
    const hh::ExchangeOptions options = exchange_options(settings, comm, strategy_);
    for (int k = 0; k < 2; ++k) {
      exchanges_[k] = std::make_unique<hh::Exchange>(problem_.geometry, fields_.view(k), options);
    }
    // After the collective set-up, so that a rank failing here cannot strand the others in it.
    sweep_ = make_overlap_sweep<Real>(settings.backend, settings.gpu_threads);
  }

  ~ConventionalOverlapJacobi() override {
    // A run that failed in its exchange may leave an interior update running into the buffers.
    try {
      sweep_->wait_interior();
    } catch (...) {
      // the run's own error has been reported already
    }
  }

  VariantKind kind() const override { return VariantKind::conventional_overlap; }

  void reset() override { fields_.reset(); }

  double run(int iterations) override {
    const auto begin = std::chrono::steady_clock::now();
    for (int step = 0; step < iterations; ++step) {
      const int in = fields_.current();
      const SweepFields<Real> fields = fields_.sweep_fields(in);
      sweep_->enqueue_boundary(problem_.stencil, fields, regions_.boundary);
      sweep_->enqueue_interior(problem_.stencil, fields, regions_.interior);
      sweep_->wait_boundary();
      exchanges_[in ^ 1]->run();  // packs the boundary layer of `out`, fills its ghosts
      sweep_->wait_interior();
      fields_.advance(1);
    }
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  }

  double run_updates_only(int iterations) override {
    const double seconds = sweep_->time_updates(problem_.stencil, fields_.steps(),
                                                fields_.current(), regions_, iterations);
    fields_.advance(iterations);
    return seconds;
  }

  hh::HostField current() const override { return fields_.download_current(); }

  std::string launch_description() const override {
    return sweep_->describe(regions_) + "; exchange " + std::string(hh::to_string(strategy_)) +
           " while the interior updates: " + exchanges_[0]->launch_description();
  }

 private:
  Problem problem_;
  FieldPair<Real> fields_;
  SweepRegions regions_;
  hh::Strategy strategy_;
  std::array<std::unique_ptr<hh::Exchange>, 2> exchanges_;
  std::unique_ptr<OverlapSweep<Real>> sweep_;
};

}  // namespace

template <class Real>
std::unique_ptr<JacobiVariant> make_conventional_overlap(const Problem& problem, MPI_Comm comm,
                                                         const RunSettings& settings) {
  return std::make_unique<ConventionalOverlapJacobi<Real>>(problem, comm, settings);
}

template std::unique_ptr<JacobiVariant> make_conventional_overlap<float>(const Problem&,
                                                                         MPI_Comm,
                                                                         const RunSettings&);
template std::unique_ptr<JacobiVariant> make_conventional_overlap<double>(const Problem&,
                                                                          MPI_Comm,
                                                                          const RunSettings&);

}  // namespace jacobi3d
