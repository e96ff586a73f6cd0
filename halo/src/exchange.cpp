#include "haloflag/halo/exchange.hpp"

#include <chrono>
#include <optional>
#include <thread>
#include <utility>

#include "exchange_resources.hpp"
#include "exchange_strategy.hpp"
#include "haloflag/halo/config_from_geometry.hpp"
#include "haloflag/halo/errors.hpp"
#include "haloflag/halo/message_layouts.hpp"
#include "message_names.hpp"
#include "message_requests.hpp"
#include "timeline_recorder.hpp"

namespace haloflag::halo {

namespace {

using Clock = std::chrono::steady_clock;

MPI_Comm duplicate(MPI_Comm comm) {
  MPI_Comm copy = MPI_COMM_NULL;
  if (MPI_Comm_dup(comm, &copy) != MPI_SUCCESS) throw ExchangeError("MPI_Comm_dup failed");
  // Errors come back as codes, so they can be reported with the message they concern.
  MPI_Comm_set_errhandler(copy, MPI_ERRORS_RETURN);
  return copy;
}

void check_fields(const kernels::FieldSet& fields, const MessageLayouts& layouts, int rank) {
  int needed = 0;
  for (const auto& layout : layouts.sends) needed = std::max(needed, layout.variable_count);
  for (const auto& layout : layouts.recvs) needed = std::max(needed, layout.variable_count);
  if (fields.variable_count < needed || fields.variable_count > kernels::kMaxVariables) {
    throw ConfigError("rank " + std::to_string(rank) + ": the messages carry " +
                      std::to_string(needed) + " variables, the fields have " +
                      std::to_string(fields.variable_count));
  }
  for (int v = 0; v < fields.variable_count; ++v) {
    if (fields.variables[v] == nullptr) {
      throw ConfigError("rank " + std::to_string(rank) + ": field variable " + std::to_string(v) +
                        " is a null pointer");
    }
  }
}

}  // namespace

class Exchange::Impl {
 public:
  Impl(const ExchangeConfig& config, const kernels::FieldSet& fields, const ExchangeOptions& options)
      : options_(options), comm_(duplicate(options.comm)) {
    MPI_Comm_rank(comm_, &rank_);
    // Set-up is agreed on by every rank: if one fails, all throw, and none waits for a peer
    // that will never exchange.
    std::string failure;
    try {
      set_up(config, fields);
    } catch (const std::exception& error) {
      failure = error.what();
    }
    const int mine = failure.empty() ? -1 : rank_;
    int first_failed = -1;
    MPI_Allreduce(&mine, &first_failed, 1, MPI_INT, MPI_MAX, comm_);
    if (first_failed >= 0) {
      tear_down();
      if (!failure.empty()) throw ExchangeError("rank " + std::to_string(rank_) + ": " + failure);
      throw ExchangeError("rank " + std::to_string(rank_) + ": rank " +
                          std::to_string(first_failed) +
                          " failed to set up the exchange (its error names the cause)");
    }
  }

  ~Impl() { tear_down(); }

  void start() {
    check_usable("start()");
    if (state_ == State::running) {
      throw ExchangeError(prefix() + "start() while the exchange is still in progress");
    }
    ++epoch_;
    started_ = Clock::now();
    state_ = State::running;
    timeline_->begin(epoch_);
    guarded([&] { strategy_->start(epoch_); });
  }

  bool progress() {
    check_usable("progress()");
    if (state_ == State::idle) return true;
    bool done = false;
    guarded([&] {
      done = strategy_->progress();
      if (done) return;
      if (auto failure = resources_->control.failure(notify::Side::device)) {
        throw ExchangeError(describe_device_failure(*failure) + pending());
      }
      const auto waited = Clock::now() - started_;
      if (waited > options_.timeout) {
        throw ExchangeError("timed out after " +
                            std::to_string(std::chrono::duration<double>(waited).count()) +
                            " s; still pending:" + pending());
      }
    });
    if (done) {
      state_ = State::idle;
      const void* stamps = resources_->device_times.host();
      timeline_->end(static_cast<const std::uint64_t*>(stamps), clock_offset_);
    }
    return done;
  }

  void finish() {
    while (!progress()) std::this_thread::yield();  // many ranks may share few cores
  }

  std::uint64_t epoch() const { return epoch_; }
  int rank() const { return rank_; }
  const RankMessages& messages() const { return messages_; }
  std::string launch_description() const { return strategy_->launch_description(); }
  const ExchangeOptions& options() const { return options_; }

  const ExchangeTimeline& last_timeline() const {
    if (!options_.trace) {
      throw ExchangeError(prefix() + "last_timeline() needs ExchangeOptions::trace");
    }
    return timeline_->last();
  }

 private:
  enum class State { idle, running, failed };

  void set_up(const ExchangeConfig& config, const kernels::FieldSet& fields) {
    int size = 0;
    MPI_Comm_size(comm_, &size);
    if (config.ranks != size) {
      throw ConfigError("the config is for " + std::to_string(config.ranks) +
                        " ranks, the communicator has " + std::to_string(size));
    }
    messages_ = config.rank_messages.at(static_cast<std::size_t>(rank_));
    names_.emplace(messages_, config.geometry.has_value());
    timeline_.emplace(messages_, options_.trace);
    // Device stamps are put on the host's time line; the offset is measured once.
    if (options_.trace && options_.backend != notify::Backend::host) {
      clock_offset_ = notify::measure_device_clock_offset(options_.backend);
    }
    MessageLayouts layouts = make_message_layouts(config, rank_);
    check_fields(fields, layouts, rank_);
    resources_ = std::make_unique<detail::ExchangeResources>(std::move(layouts), fields, options_);
    runner_ = kernels::make_kernel_runner(options_.backend, resources_->plan, options_.launch);
    requests_ = std::make_unique<detail::MessageRequests>(
        comm_, messages_, resources_->layouts, resources_->send_buffer_host(),
        resources_->recv_buffer_host(), *names_);
    const detail::StrategyContext context{*resources_, *runner_, *requests_, *timeline_};
    strategy_ = uses_flags(options_.strategy)
                    ? detail::make_notify_strategy(options_.strategy, context)
                    : detail::make_bulk_strategy(options_.strategy, context);
  }

  // Stops kernels (abort first if an exchange is unfinished), drops MPI requests, frees memory
  // in the order that keeps the kernels' memory alive until they are gone.
  void tear_down() noexcept {
    if (resources_ && state_ != State::idle) resources_->control.raise_abort();
    if (strategy_) strategy_->shut_down();
    if (requests_) requests_->cancel();
    strategy_.reset();
    requests_.reset();
    runner_.reset();
    resources_.reset();
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (!finalized && comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
  }

  void check_usable(const char* call) const {
    if (state_ == State::failed) {
      throw ExchangeError(prefix() + call + " after a failed exchange: this Exchange is unusable");
    }
  }

  // Runs `step`; any error marks the exchange failed, raises the abort flag so the kernels
  // stop waiting, and comes out as an ExchangeError naming rank, epoch and strategy.
  template <class Step>
  void guarded(Step step) {
    try {
      step();
    } catch (const std::exception& error) {
      state_ = State::failed;
      resources_->control.raise_abort();
      requests_->cancel();
      throw ExchangeError(prefix() + error.what());
    }
  }

  std::string prefix() const {
    return "rank " + std::to_string(rank_) + ", exchange " + std::to_string(epoch_) + " (" +
           std::string(to_string(options_.strategy)) + " on " +
           std::string(notify::to_string(options_.backend)) + "): ";
  }

  std::string pending() const { return requests_->pending() + strategy_->pending(); }

  std::string describe_device_failure(const notify::WaitFailure& failure) const {
    std::string text = failure.describe();
    if (failure.array_name == "unpack_ready" && failure.index < messages_.recvs.size()) {
      text += ", waiting for the " + names_->recv(failure.index);
    } else if (failure.array_name == "pack_start") {
      text += ", waiting for the next exchange to start (resident kernels wait at most the "
              "timeout between exchanges)";
    }
    return text + "; still pending:";
  }

  ExchangeOptions options_;
  MPI_Comm comm_ = MPI_COMM_NULL;
  int rank_ = 0;
  RankMessages messages_;
  std::optional<detail::MessageNames> names_;
  std::optional<detail::TimelineRecorder> timeline_;
  notify::DeviceClockOffset clock_offset_;
  std::unique_ptr<detail::ExchangeResources> resources_;
  std::unique_ptr<kernels::KernelRunner> runner_;
  std::unique_ptr<detail::MessageRequests> requests_;
  std::unique_ptr<detail::ExchangeStrategy> strategy_;
  std::uint64_t epoch_ = 0;
  State state_ = State::idle;
  Clock::time_point started_{};
};

Exchange::Exchange(const ExchangeConfig& config, const kernels::FieldSet& fields,
                   const ExchangeOptions& options)
    : impl_(std::make_unique<Impl>(config, fields, options)) {}

Exchange::Exchange(const Geometry& geometry, const kernels::FieldSet& fields,
                   const ExchangeOptions& options)
    : Exchange(make_exchange_config(geometry), fields, options) {}

Exchange::~Exchange() = default;

void Exchange::start() { impl_->start(); }
bool Exchange::progress() { return impl_->progress(); }
void Exchange::finish() { impl_->finish(); }
void Exchange::run() {
  impl_->start();
  impl_->finish();
}
std::uint64_t Exchange::epoch() const { return impl_->epoch(); }
Strategy Exchange::strategy() const { return impl_->options().strategy; }
notify::Backend Exchange::backend() const { return impl_->options().backend; }
int Exchange::rank() const { return impl_->rank(); }
const RankMessages& Exchange::messages() const { return impl_->messages(); }
std::string Exchange::launch_description() const { return impl_->launch_description(); }
const ExchangeTimeline& Exchange::last_timeline() const { return impl_->last_timeline(); }

}  // namespace haloflag::halo
