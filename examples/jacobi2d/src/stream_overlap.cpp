// haloflag's stream-ordered exchange (halo::Strategy::resident): per iteration, on one stream,
// the first and last row are updated, the exchange starts (its resident kernels pack once the
// stream reaches the start), the interior rows update while the rows fly, and the stream waits
// for the ghost rows. On a norm check a one-thread kernel publishes the rank's sum to the host
// (norm_slots.hpp), which sums each over the ranks as it arrives: no host wait per iteration,
// one per run. One Exchange serves both fields (StreamOrderedExchange).
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include "haloflag/examples/stream_ordered_exchange.hpp"
#include "row_sweeps.hpp"
#include "row_variant.hpp"

namespace jacobi2d {

namespace {

template <class Real>
class StreamOverlap final : public RowVariant<Real> {
 public:
  StreamOverlap(const Problem& problem, MPI_Comm comm, const RunSettings& settings)
      : RowVariant<Real>(problem, comm, settings, sizeof(double)),
        exchange_(problem.geometry, this->fields_.view(0), this->fields_.view(1), comm, settings),
        sweeps_(make_row_sweeps<Real>(settings.backend, settings.gpu_threads)) {}

  ~StreamOverlap() override {
    exchange_.release_abandoned_run([&] { sweeps_->synchronize(Lane::interior); });
  }

  VariantKind kind() const override { return VariantKind::stream; }

  std::string launch_description() const override {
    return sweeps_->describe() + "; " + exchange_.describe();
  }

 private:
  double iterate(int iterations, bool exchange) override {
    PlanePair<Real>& fields = this->fields_;
    const int nccheck = this->settings_.nccheck;
    const auto begin = std::chrono::steady_clock::now();
    exchange_.begin_run();
    const haloflag::notify::WorkStream stream = sweeps_->stream(Lane::interior);
    double* norm = static_cast<double*>(this->accumulators_.data());
    for (int i = 0; i < iterations; ++i) {
      const int in = fields.current();
      const PlaneStep<Real> step = fields.step(in);
      const bool check = i % nccheck == 0;
      double* step_norm = check ? norm : nullptr;
      exchange_.step(
          stream, fields.view(in ^ 1),
          [&] { sweeps_->enqueue(Lane::interior, step, boundary_rows(fields.rows()), step_norm); },
          [&] { sweeps_->enqueue(Lane::interior, step, interior_rows(fields.rows()), step_norm); },
          exchange);
      if (check) {
        sweeps_->enqueue_publish(Lane::interior, norm, this->follower_.slots(),
                                 static_cast<std::uint64_t>(i / nccheck));
      }
      fields.advance(1);
    }
    // With caller progress this thread runs the MPI peers' side while it follows the norms.
    this->follow_norms(iterations, [&] {
      if (exchange) exchange_.progress();
    });
    exchange_.end_run(exchange, [&] { sweeps_->synchronize(Lane::interior); });
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  }

  haloflag::examples::StreamOrderedExchange exchange_;
  std::unique_ptr<RowSweeps<Real>> sweeps_;  // destroyed first: its stream waits on the exchange
};

}  // namespace

std::unique_ptr<Variant> make_stream(const Problem& problem, MPI_Comm comm,
                                     const RunSettings& settings) {
  return make_with_real<Variant, StreamOverlap>(problem.precision, problem, comm, settings);
}

}  // namespace jacobi2d
