// haloflag's stream-ordered exchange (halo::Strategy::resident): per iteration, on one stream,
// the first and last row are updated, the exchange starts (its resident kernels pack once the
// stream reaches the start), the interior rows update while the rows fly, and the stream waits
// for the ghost rows. On a norm check a one-thread kernel publishes the rank's sum to the host
// (norm_slots.hpp), which sums each over the ranks as it arrives: no host wait per iteration,
// one per run. One Exchange serves both fields (start(stream, fields)).
#include <chrono>
#include <memory>
#include <string>

#include "haloflag/halo/exchange.hpp"
#include "haloflag/halo/progress.hpp"
#include "haloflag/kernels/device_memory.hpp"
#include "norm_follower.hpp"
#include "plane_pair.hpp"
#include "row_sweeps.hpp"
#include "variant.hpp"

namespace jacobi2d {

namespace {

namespace hh = haloflag::halo;

template <class Real>
class StreamOverlap final : public Variant {
 public:
  StreamOverlap(const Problem& problem, MPI_Comm comm, const RunSettings& settings)
      : settings_(settings), fields_(problem, rank_of(comm), settings.backend),
        norm_(settings.backend, sizeof(double)),
        follower_(settings.backend, norm_checks(settings.max_iterations, settings.nccheck), comm,
                  settings.timeout) {
    hh::ExchangeOptions options = exchange_options(settings, comm, hh::Strategy::resident);
    options.progress = settings.progress;
    // Blocks of the example's size, not of 1024 threads, leave the SMs to the updates.
    options.advanced.launch.message_threads = settings.gpu_threads;
    exchange_ = std::make_unique<hh::Exchange>(problem.geometry, fields_.view(0), options);
    // The node senders place into both fields' ghost rows (collective; before the first
    // exchange).
    exchange_->map_fields(fields_.view(1));
    sweeps_ = make_row_sweeps<Real>(settings.backend, settings.gpu_threads);
  }

  ~StreamOverlap() override {
    // An abandoned run may leave the stream waiting for exchanges that will never complete:
    // aborting releases those waits, and the stream must be idle before the exchange goes.
    if (running_) {
      exchange_->abort("the stream Jacobi run was abandoned");
      try {
        sweeps_->synchronize(Lane::interior);
      } catch (...) {
        // the run's own error has been reported already
      }
    }
  }

  VariantKind kind() const override { return VariantKind::stream; }
  void reset() override { fields_.reset(); }

  double run(int iterations) override { return iterate(iterations, true); }
  double run_updates(int iterations) override { return iterate(iterations, false); }

  const std::vector<double>& norms() const override { return norms_; }
  std::vector<double> current_rows() const override { return widened(fields_.download_rows()); }

  std::string launch_description() const override {
    return sweeps_->describe() + "; exchange resident, stream-ordered, " +
           std::string(hh::to_string(settings_.progress)) + " progress: " +
           exchange_->launch_description();
  }

 private:
  double iterate(int iterations, bool exchange) {
    norms_.clear();
    follower_.reset();
    const auto begin = std::chrono::steady_clock::now();
    running_ = true;
    const haloflag::notify::WorkStream stream = sweeps_->stream(Lane::interior);
    double* norm = static_cast<double*>(norm_.data());
    for (int i = 0; i < iterations; ++i) {
      const int in = fields_.current();
      const PlaneStep<Real> step = fields_.step(in);
      const bool check = i % settings_.nccheck == 0;
      sweeps_->enqueue(Lane::interior, step, boundary_rows(fields_.rows()), check ? norm : nullptr);
      if (exchange) exchange_->start(stream, fields_.view(in ^ 1));
      sweeps_->enqueue(Lane::interior, step, interior_rows(fields_.rows()), check ? norm : nullptr);
      if (exchange) exchange_->wait(stream);
      if (check) {
        sweeps_->enqueue_publish(Lane::interior, norm, follower_.slots(),
                                 static_cast<std::uint64_t>(i / settings_.nccheck));
      }
      fields_.advance(1);
    }
    // With caller progress this thread runs the MPI peers' side while it follows the norms.
    const auto progress = [&] {
      if (exchange) (void)exchange_->progress();
    };
    for (int k = 0; k < norm_checks(iterations, settings_.nccheck); ++k) {
      norms_.push_back(follower_.reduce(k, k * settings_.nccheck, progress));
    }
    if (exchange) exchange_->finish();
    sweeps_->synchronize(Lane::interior);
    running_ = false;
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  }

  RunSettings settings_;
  PlanePair<Real> fields_;
  haloflag::kernels::DeviceMemory norm_;
  NormFollower follower_;
  std::unique_ptr<hh::Exchange> exchange_;
  std::unique_ptr<RowSweeps<Real>> sweeps_;  // destroyed first: its stream waits on the exchange
  std::vector<double> norms_;
  bool running_ = false;
};

}  // namespace

template <class Real>
std::unique_ptr<Variant> make_stream(const Problem& problem, MPI_Comm comm,
                                     const RunSettings& settings) {
  return std::make_unique<StreamOverlap<Real>>(problem, comm, settings);
}

template std::unique_ptr<Variant> make_stream<float>(const Problem&, MPI_Comm, const RunSettings&);
template std::unique_ptr<Variant> make_stream<double>(const Problem&, MPI_Comm,
                                                      const RunSettings&);

}  // namespace jacobi2d
