// The best conventional loop, as the peer's *_overlap variants and serious codes do it: per
// iteration the first and last row are updated on a high-priority stream; once they are done,
// a Comb-style exchange (halo::Exchange, comb_fused or comb_graph) sends them and fills the
// ghost rows while the interior rows update on a second stream; the host then waits for the
// interior. On a norm check a one-thread kernel after the interior's copies the rank's sum to
// host memory, and the host sums it over the ranks once the interior is done, as the peer does. One Exchange per field: an Exchange is bound to the fields
// it packs. The host waits and MPI calls between the kernels leave no stretch to capture as a
// CUDA graph; the exchange's own kernels are replayed as graphs with comb_graph.
#include <array>
#include <chrono>
#include <memory>
#include <string>

#include "haloflag/halo/exchange.hpp"
#include "haloflag/kernels/device_memory.hpp"
#include "norm_follower.hpp"
#include "plane_pair.hpp"
#include "row_sweeps.hpp"
#include "variant.hpp"

namespace jacobi2d {

namespace {

namespace hh = haloflag::halo;

template <class Real>
class ConventionalOverlap final : public Variant {
 public:
  ConventionalOverlap(const Problem& problem, MPI_Comm comm, const RunSettings& settings)
      : settings_(settings), fields_(problem, rank_of(comm), settings.backend),
        norm_(settings.backend, sizeof(double)),
        follower_(settings.backend, norm_checks(settings.max_iterations, settings.nccheck), comm,
                  settings.timeout) {
    const hh::ExchangeOptions options =
        exchange_options(settings, comm, settings.conventional_strategy);
    for (int k = 0; k < 2; ++k) {
      exchanges_[k] = std::make_unique<hh::Exchange>(problem.geometry, fields_.view(k), options);
    }
    // After the collective set-up, so that a rank failing here cannot strand the others in it.
    sweeps_ = make_row_sweeps<Real>(settings.backend, settings.gpu_threads);
  }

  VariantKind kind() const override { return VariantKind::conventional_overlap; }
  void reset() override { fields_.reset(); }

  double run(int iterations) override { return iterate(iterations, true); }
  double run_updates(int iterations) override { return iterate(iterations, false); }

  const std::vector<double>& norms() const override { return norms_; }
  std::vector<double> current_rows() const override { return widened(fields_.download_rows()); }

  std::string launch_description() const override {
    return sweeps_->describe() + "; exchange " +
           std::string(hh::to_string(exchanges_[0]->strategy())) + ": " +
           exchanges_[0]->launch_description();
  }

 private:
  double iterate(int iterations, bool exchange) {
    norms_.clear();
    follower_.reset();
    const auto begin = std::chrono::steady_clock::now();
    for (int i = 0; i < iterations; ++i) {
      const int in = fields_.current();
      const PlaneStep<Real> step = fields_.step(in);
      const bool check = i % settings_.nccheck == 0;
      double* norm = check ? static_cast<double*>(norm_.data()) : nullptr;
      sweeps_->enqueue(Lane::boundary, step, boundary_rows(fields_.rows()), norm);
      sweeps_->enqueue(Lane::interior, step, interior_rows(fields_.rows()), norm);
      sweeps_->synchronize(Lane::boundary);
      if (exchange) exchanges_[in ^ 1]->run();
      const int k = i / settings_.nccheck;
      if (check) {
        sweeps_->enqueue_publish(Lane::interior, norm, follower_.slots(),
                                 static_cast<std::uint64_t>(k));
      }
      sweeps_->synchronize(Lane::interior);
      if (check) norms_.push_back(follower_.reduce(k, i, [] {}));
      fields_.advance(1);
    }
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  }

  RunSettings settings_;
  PlanePair<Real> fields_;
  haloflag::kernels::DeviceMemory norm_;  // the rank's sum of squared changes
  NormFollower follower_;
  std::array<std::unique_ptr<hh::Exchange>, 2> exchanges_;
  std::unique_ptr<RowSweeps<Real>> sweeps_;
  std::vector<double> norms_;
};

}  // namespace

template <class Real>
std::unique_ptr<Variant> make_conventional_overlap(const Problem& problem, MPI_Comm comm,
                                                   const RunSettings& settings) {
  return std::make_unique<ConventionalOverlap<Real>>(problem, comm, settings);
}

template std::unique_ptr<Variant> make_conventional_overlap<float>(const Problem&, MPI_Comm,
                                                                   const RunSettings&);
template std::unique_ptr<Variant> make_conventional_overlap<double>(const Problem&, MPI_Comm,
                                                                    const RunSettings&);

}  // namespace jacobi2d
