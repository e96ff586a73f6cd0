// haloflag's stream-ordered exchange (halo::Strategy::resident): per iteration, on one stream,
// the first and last row are updated, the exchange starts (its resident kernels pack once the
// stream reaches the start), the interior rows update while the rows fly, and the stream waits
// for the ghost rows. On a norm check a one-thread kernel publishes the rank's sum to the host
// (norm_slots.hpp), which sums each over the ranks as it arrives: no host wait per iteration,
// one per run. One Exchange serves both fields (start(stream, fields)).
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include "haloflag/halo/exchange.hpp"
#include "haloflag/halo/progress.hpp"
#include "row_sweeps.hpp"
#include "row_variant.hpp"

namespace jacobi2d {

namespace {

namespace hh = haloflag::halo;

template <class Real>
class StreamOverlap final : public RowVariant<Real> {
 public:
  StreamOverlap(const Problem& problem, MPI_Comm comm, const RunSettings& settings)
      : RowVariant<Real>(problem, comm, settings, sizeof(double)) {
    hh::ExchangeOptions options = exchange_options(settings, comm, hh::Strategy::resident);
    options.progress = settings.progress;
    // Blocks of the example's size, not of 1024 threads, leave the SMs to the updates.
    options.advanced.launch.message_threads = settings.gpu_threads;
    exchange_ = std::make_unique<hh::Exchange>(problem.geometry, this->fields_.view(0), options);
    // The node senders place into both fields' ghost rows (collective; before the first
    // exchange).
    exchange_->map_fields(this->fields_.view(1));
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

  std::string launch_description() const override {
    return sweeps_->describe() + "; exchange resident, stream-ordered, " +
           std::string(hh::to_string(this->settings_.progress)) + " progress: " +
           exchange_->launch_description();
  }

 private:
  double iterate(int iterations, bool exchange) override {
    PlanePair<Real>& fields = this->fields_;
    const int nccheck = this->settings_.nccheck;
    const auto begin = std::chrono::steady_clock::now();
    running_ = true;
    const haloflag::notify::WorkStream stream = sweeps_->stream(Lane::interior);
    double* norm = static_cast<double*>(this->accumulators_.data());
    for (int i = 0; i < iterations; ++i) {
      const int in = fields.current();
      const PlaneStep<Real> step = fields.step(in);
      const bool check = i % nccheck == 0;
      sweeps_->enqueue(Lane::interior, step, boundary_rows(fields.rows()), check ? norm : nullptr);
      if (exchange) exchange_->start(stream, fields.view(in ^ 1));
      sweeps_->enqueue(Lane::interior, step, interior_rows(fields.rows()), check ? norm : nullptr);
      if (exchange) exchange_->wait(stream);
      if (check) {
        sweeps_->enqueue_publish(Lane::interior, norm, this->follower_.slots(),
                                 static_cast<std::uint64_t>(i / nccheck));
      }
      fields.advance(1);
    }
    // With caller progress this thread runs the MPI peers' side while it follows the norms.
    this->follow_norms(iterations, [&] {
      if (exchange) (void)exchange_->progress();
    });
    if (exchange) exchange_->finish();
    sweeps_->synchronize(Lane::interior);
    running_ = false;
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  }

  std::unique_ptr<hh::Exchange> exchange_;
  std::unique_ptr<RowSweeps<Real>> sweeps_;  // destroyed first: its stream waits on the exchange
  bool running_ = false;
};

}  // namespace

std::unique_ptr<Variant> make_stream(const Problem& problem, MPI_Comm comm,
                                     const RunSettings& settings) {
  return make_with_real<Variant, StreamOverlap>(problem.precision, problem, comm, settings);
}

}  // namespace jacobi2d
