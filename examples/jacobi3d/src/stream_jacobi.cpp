// The stream variant: per iteration, ordered on one stream (a GPU stream, or a HostQueue on the
// host backend), the boundary layer's update (in -> out), the start of the exchange of `out`'s
// halo, the interior's update while the exchange's resident kernels (halo::Strategy::resident)
// pack and unpack, and the wait for the exchange: no host synchronisation until the run's end. One Exchange serves both buffers (start(stream, fields)).
#include <chrono>
#include <memory>
#include <string>

#include "field_pair.hpp"
#include "haloflag/halo/exchange.hpp"
#include "haloflag/halo/progress.hpp"
#include "jacobi_variant.hpp"
#include "owned_sweep.hpp"
#include "sweep_regions.hpp"

namespace jacobi3d {

namespace {

namespace hh = haloflag::halo;

template <class Real>
class StreamJacobi final : public JacobiVariant {
 public:
  StreamJacobi(const Problem& problem, MPI_Comm comm, const RunSettings& settings)
      : problem_(problem), fields_(problem.geometry, comm, settings.backend),
        regions_(sweep_regions(problem.geometry.subdomain(fields_.rank()).extent, kGhostWidth)),
        progress_(settings.progress) {
    hh::ExchangeOptions options = exchange_options(settings, comm, hh::Strategy::resident);
    options.progress = settings.progress;
    // Its kernels stay resident through the other variants' runs: blocks of the example's size,
    // not of 1024 threads, leave the GPU to them (two ranks of 26 messages each under MPS
    // otherwise held SMs that the resident variant's cooperative grid waited for).
    options.advanced.launch.message_threads = settings.gpu_threads;
    exchange_ = std::make_unique<hh::Exchange>(problem_.geometry, fields_.view(0), options);
    // The node senders place into both buffers' ghost cells (collective; before the first
    // exchange, while the resident kernels have read no route).
    exchange_->map_fields(fields_.view(1));
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

  void reset() override { fields_.reset(); }

  double run(int iterations) override {
    const auto begin = std::chrono::steady_clock::now();
    running_ = true;
    for (int step = 0; step < iterations; ++step) {
      const int in = fields_.current();
      // The boundary layer first: the exchange packs it once the stream reaches the start, while
      // the interior, enqueued behind the start, updates.
      sweep_->enqueue_boundary(problem_.stencil, fields_.sweep_fields(in), regions_.boundary);
      exchange_->start(sweep_->stream(), fields_.view(in ^ 1));
      sweep_->enqueue(problem_.stencil, fields_.sweep_fields(in), regions_.interior);
      exchange_->wait(sweep_->stream());
      fields_.advance(1);
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
    const double seconds = sweep_->time_updates(problem_.stencil, fields_.steps(),
                                                fields_.current(), regions_, true, iterations);
    fields_.advance(iterations);
    return seconds;
  }

  hh::HostField current() const override { return fields_.download_current(); }

  std::string launch_description() const override {
    return sweep_->describe(regions_.interior) +
           " for the interior, after the boundary layer and the exchange's start; exchange "
           "resident, stream-ordered, " +
           std::string(hh::to_string(progress_)) + " progress: " +
           exchange_->launch_description();
  }

 private:
  Problem problem_;
  FieldPair<Real> fields_;
  SweepRegions regions_;
  hh::Progress progress_;
  std::unique_ptr<hh::Exchange> exchange_;
  std::unique_ptr<OwnedSweep<Real>> sweep_;  // destroyed first: its stream waits on the exchange
  bool running_ = false;
};

}  // namespace

template <class Real>
std::unique_ptr<JacobiVariant> make_stream(const Problem& problem, MPI_Comm comm,
                                           const RunSettings& settings) {
  return std::make_unique<StreamJacobi<Real>>(problem, comm, settings);
}

template std::unique_ptr<JacobiVariant> make_stream<float>(const Problem&, MPI_Comm,
                                                           const RunSettings&);
template std::unique_ptr<JacobiVariant> make_stream<double>(const Problem&, MPI_Comm,
                                                            const RunSettings&);

}  // namespace jacobi3d
