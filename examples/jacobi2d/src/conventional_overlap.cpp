// The best conventional loop, as the peer's *_overlap variants and serious codes do it: per
// iteration the first and last row are updated on a high-priority stream; once they are done,
// a Comb-style exchange (halo::Exchange, comb_fused or comb_graph) sends them and fills the
// ghost rows while the interior rows update on a second stream; the host then waits for the
// interior. On a norm check a one-thread kernel after the interior's copies the rank's sum to
// host memory, and the host sums it over the ranks once the interior is done, as the peer does.
// One Exchange per field (ExchangePerField). The host waits and MPI calls between the kernels
// leave no stretch to capture as a CUDA graph; the exchange's own kernels are replayed as graphs
// with comb_graph.
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include "haloflag/examples/exchange_per_field.hpp"
#include "row_sweeps.hpp"
#include "row_variant.hpp"

namespace jacobi2d {

namespace {

template <class Real>
class ConventionalOverlap final : public RowVariant<Real> {
 public:
  ConventionalOverlap(const Problem& problem, MPI_Comm comm, const RunSettings& settings)
      : RowVariant<Real>(problem, comm, settings, sizeof(double)),
        exchanges_(problem.geometry, this->fields_.view(0), this->fields_.view(1),
                   exchange_options(settings, comm, settings.conventional_strategy)),
        // After the collective set-up, so that a rank failing here cannot strand the others.
        sweeps_(make_row_sweeps<Real>(settings.backend, settings.gpu_threads)) {}

  VariantKind kind() const override { return VariantKind::conventional_overlap; }

  std::string launch_description() const override {
    return sweeps_->describe() + "; " + exchanges_.describe();
  }

 private:
  double iterate(int iterations, bool exchange) override {
    PlanePair<Real>& fields = this->fields_;
    const int nccheck = this->settings_.nccheck;
    NormFollower& follower = this->follower_;
    const auto begin = std::chrono::steady_clock::now();
    for (int i = 0; i < iterations; ++i) {
      const int in = fields.current();
      const PlaneStep<Real> step = fields.step(in);
      const bool check = i % nccheck == 0;
      double* norm = check ? static_cast<double*>(this->accumulators_.data()) : nullptr;
      sweeps_->enqueue(Lane::boundary, step, boundary_rows(fields.rows()), norm);
      sweeps_->enqueue(Lane::interior, step, interior_rows(fields.rows()), norm);
      sweeps_->synchronize(Lane::boundary);
      if (exchange) exchanges_.run(in ^ 1);
      const int k = i / nccheck;
      if (check) {
        sweeps_->enqueue_publish(Lane::interior, norm, follower.slots(),
                                 static_cast<std::uint64_t>(k));
      }
      sweeps_->synchronize(Lane::interior);
      if (check) this->norms_.push_back(follower.reduce(k, i, [] {}));
      fields.advance(1);
    }
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  }

  haloflag::examples::ExchangePerField exchanges_;
  std::unique_ptr<RowSweeps<Real>> sweeps_;
};

}  // namespace

std::unique_ptr<Variant> make_conventional_overlap(const Problem& problem, MPI_Comm comm,
                                                   const RunSettings& settings) {
  return make_with_real<Variant, ConventionalOverlap>(problem.precision, problem, comm, settings);
}

}  // namespace jacobi2d
