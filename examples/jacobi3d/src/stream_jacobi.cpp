// The stream variant: per iteration, ordered on one stream (a GPU stream, or a HostQueue on the
// host backend), the boundary layer's update (in -> out), the start of the exchange of `out`'s
// halo, the interior's update while the exchange's resident kernels (halo::Strategy::resident)
// pack and unpack, and the wait for the exchange: no host synchronisation until the run's end. One Exchange serves both buffers (start(stream, fields)).
#include <chrono>
#include <memory>
#include <string>

#include "field_variant.hpp"
#include "haloflag/halo/exchange.hpp"
#include "haloflag/halo/progress.hpp"
#include "owned_sweep.hpp"

namespace jacobi3d {

namespace {

namespace hh = haloflag::halo;

template <class Real>
class StreamJacobi final : public FieldVariant<Real> {
 public:
  StreamJacobi(const Problem& problem, MPI_Comm comm, const RunSettings& settings)
      : FieldVariant<Real>(problem, comm, settings), progress_(settings.progress) {
    const FieldPair<Real>& fields = this->fields_;
    hh::ExchangeOptions options = exchange_options(settings, comm, hh::Strategy::resident);
    options.progress = settings.progress;
    // Its kernels stay resident through the other variants' runs: blocks of the example's size,
    // not of 1024 threads, leave the GPU to them (two ranks of 26 messages each under MPS
    // otherwise held SMs that the resident variant's cooperative grid waited for).
    options.advanced.launch.message_threads = settings.gpu_threads;
    exchange_ = std::make_unique<hh::Exchange>(this->problem_.geometry, fields.view(0), options);
    // The node senders place into both buffers' ghost cells (collective; before the first
    // exchange, while the resident kernels have read no route).
    exchange_->map_fields(fields.view(1));
    // After the collective set-up, so that a rank failing here cannot strand the others in it.
    sweep_ = make_owned_sweep<Real>(settings.backend, settings.gpu_threads);
  }

  ~StreamJacobi() override {
    // An abandoned run may leave the stream waiting for exchanges that will never complete:
    // aborting releases those waits, and the stream must be idle before the exchange goes.
    if (running_) {
      exchange_->abort("the stream Jacobi run was abandoned");
      try {
        sweep_->synchronize();
      } catch (...) {
        // the run's own error has been reported already
      }
    }
  }

  VariantKind kind() const override { return VariantKind::stream; }

  double run(int iterations) override {
    FieldPair<Real>& fields = this->fields_;
    const StencilKind stencil = this->problem_.stencil;
    const SweepRegions& regions = this->regions_;
    const auto begin = std::chrono::steady_clock::now();
    running_ = true;
    for (int step = 0; step < iterations; ++step) {
      const int in = fields.current();
      // The boundary layer first: the exchange packs it once the stream reaches the start, while
      // the interior, enqueued behind the start, updates.
      sweep_->enqueue_boundary(stencil, fields.sweep_fields(in), regions.boundary);
      exchange_->start(sweep_->stream(), fields.view(in ^ 1));
      sweep_->enqueue(stencil, fields.sweep_fields(in), regions.interior);
      exchange_->wait(sweep_->stream());
      fields.advance(1);
    }
    // The run's one host wait. finish() first: with caller progress this thread runs the MPI
    // peers' side while the stream drains (waiting for the stream first would leave their
    // messages unsent); with a progress thread on this thread's one core (mpiexec's default
    // binding) it sleeps until that thread is done, where a stream synchronisation would spin
    // beside it.
    exchange_->finish();
    sweep_->synchronize();
    running_ = false;
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
           " for the interior, after the boundary layer and the exchange's start; exchange "
           "resident, stream-ordered, " +
           std::string(hh::to_string(progress_)) + " progress: " +
           exchange_->launch_description();
  }

 private:
  hh::Progress progress_;
  std::unique_ptr<hh::Exchange> exchange_;
  std::unique_ptr<OwnedSweep<Real>> sweep_;  // destroyed first: its stream waits on the exchange
  bool running_ = false;
};

}  // namespace

std::unique_ptr<JacobiVariant> make_stream(const Problem& problem, MPI_Comm comm,
                                           const RunSettings& settings) {
  return make_with_real<JacobiVariant, StreamJacobi>(problem.precision, problem, comm, settings);
}

}  // namespace jacobi3d
