#include "haloflag/examples/stream_ordered_exchange.hpp"

namespace haloflag::examples {

namespace hh = haloflag::halo;

namespace {

hh::ExchangeOptions stream_options(MPI_Comm comm, const VariantSettings& settings) {
  hh::ExchangeOptions options = exchange_options(settings, comm, hh::Strategy::resident);
  options.progress = settings.progress;
  // Its kernels stay resident through the other variants' runs: blocks of the example's size,
  // not of 1024 threads, leave the GPU to them (two ranks of 26 messages each under MPS
  // otherwise held SMs that the resident variant's cooperative grid waited for) and the SMs to
  // the updates.
  options.advanced.launch.message_threads = settings.gpu_threads;
  return options;
}

}  // namespace

StreamOrderedExchange::StreamOrderedExchange(const hh::Geometry& geometry,
                                             const haloflag::kernels::FieldSet& field0,
                                             const haloflag::kernels::FieldSet& field1,
                                             MPI_Comm comm, const VariantSettings& settings)
    : progress_(settings.progress),
      exchange_(std::make_unique<hh::Exchange>(geometry, field0, stream_options(comm, settings))) {
  exchange_->map_fields(field1);
}

void StreamOrderedExchange::end_run(bool exchanged, const std::function<void()>& drain) {
  // finish() first: with caller progress this thread runs the MPI peers' side while the stream
  // drains (waiting for the stream first would leave their messages unsent); with a progress
  // thread on this thread's one core (mpiexec's default binding) it sleeps until that thread is
  // done, where a stream synchronisation would spin beside it.
  if (exchanged) exchange_->finish();
  drain();
  running_ = false;
}

void StreamOrderedExchange::release_abandoned_run(const std::function<void()>& drain) {
  if (!running_) return;
  exchange_->abort("the stream Jacobi run was abandoned");
  try {
    drain();
  } catch (...) {
    // the run's own error has been reported already
  }
}

std::string StreamOrderedExchange::describe() const {
  return "exchange resident, stream-ordered, " + std::string(hh::to_string(progress_)) +
         " progress: " + exchange_->launch_description();
}

}  // namespace haloflag::examples
