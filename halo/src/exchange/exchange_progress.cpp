// The CPU side of an Exchange's exchanges and its progress thread (exchange_progress.hpp).
#include "exchange/exchange_progress.hpp"

#include "cpu_cores.hpp"
#include "haloflag/halo/errors.hpp"

namespace haloflag::halo::detail {

namespace {

// How long the progress thread polls for the next exchange before it sleeps: a start() soon
// after the last exchange is picked up at once, an idle Exchange costs no core.
constexpr auto kProgressSpin = std::chrono::milliseconds(2);

// A caller asleep in finish() beside a progress thread on its one core wakes at least this often
// to look for itself; the progress thread wakes it sooner, when an exchange completes or fails.
constexpr auto kCallerSleepSlice = std::chrono::milliseconds(1);

}  // namespace

void ExchangeProgress::start_thread() {
  // mpiexec binds a rank to one core by default: the progress thread then shares it with
  // the caller, and neither may spin while the other has work.
  shares_core_ = cores_of_this_thread() == 1;
  progress_thread_ = std::thread([this] { run_thread(); });
}

void ExchangeProgress::stop_thread() noexcept {
  if (!progress_thread_.joinable()) return;
  {
    const std::lock_guard<std::mutex> lock(progress_mutex_);
    stop_progress_.store(true, std::memory_order_release);
  }
  progress_wakeup_.notify_one();
  progress_thread_.join();
}

void ExchangeProgress::start_by_host(std::uint64_t next) {
  host_started_.store(next, std::memory_order_relaxed);
  publish(next);
  // The pack work starts now; with a progress thread, as soon as it sees the exchange.
  if (!progress_thread_.joinable()) guarded([&] { begin(next); });
}

void ExchangeProgress::publish(std::uint64_t next) {
  {
    const std::lock_guard<std::mutex> lock(progress_mutex_);
    epoch_.store(next, std::memory_order_release);
  }
  progress_wakeup_.notify_one();
}

bool ExchangeProgress::progress() {
  check_usable("progress()");
  if (progress_thread_.joinable()) {
    throw_if_aborted_idle();
    return !running();
  }
  bool done = false;
  guarded([&] { done = advance(); });
  return done;
}

void ExchangeProgress::await(std::uint64_t exchange) {
  if (progress_thread_.joinable() && shares_core_) sleep_until_completed(exchange);
  // Many ranks may share few cores.
  while (completed() < exchange && !progress()) std::this_thread::yield();
}

void ExchangeProgress::throw_if_aborted_idle() {
  if (!errors_.abort_requested()) return;
  if (progress_thread_.joinable() && running()) return;
  guarded([&] { throw_if_abort_requested(); });
}

// One step of the CPU side: begins the next started exchange when none is in progress and
// advances the one in progress. True once every started exchange is complete.
bool ExchangeProgress::advance() {
  throw_if_abort_requested();
  if (cpu_epoch_ == 0) {
    const std::uint64_t next = completed_.load(std::memory_order_relaxed) + 1;
    if (next > epoch()) return true;
    begin(next);
  }
  if (!step()) return false;
  parts_.resources->send_buffer_free.signal(0, cpu_epoch_);
  const void* stamps = parts_.resources->device_times.host();
  parts_.timeline->end(static_cast<const std::uint64_t*>(stamps), parts_.clock_offset);
  completed_.store(cpu_epoch_, std::memory_order_release);
  cpu_epoch_ = 0;
  return !running();
}

void ExchangeProgress::begin(std::uint64_t next) {
  cpu_epoch_ = next;
  started_ = Clock::now();
  parts_.timeline->begin(next);
  const bool by_host = host_started_.load(std::memory_order_relaxed) == next;
  parts_.strategy->start(next, by_host ? PackStart::by_strategy : PackStart::by_stream);
  parts_.timeline->started();
}

// Advances the exchange in progress; true once it is complete.
bool ExchangeProgress::step() {
  if (parts_.strategy->progress()) return true;
  // An abort during progress() also ends device waits: name its reason, not their failure.
  throw_if_abort_requested();
  if (auto failure = parts_.resources->control.failure(notify::Side::device)) {
    // An abort() that came after the check above may be what ended the device's wait
    // (abort() sets its reason before it raises the flag the device reads): name it.
    throw_if_abort_requested();
    // A device wait that was aborted is the abort's (reported above); else its deadline.
    throw ExchangeError(failure->outcome == notify::WaitOutcome::timed_out ? ErrorKind::timeout
                                                                            : ErrorKind::usage,
                        errors_.describe_device_failure(*failure) + pending());
  }
  const auto waited = Clock::now() - started_;
  if (waited > parts_.options.timeout) {
    throw ExchangeError(ErrorKind::timeout, "timed out after " +
                        std::to_string(std::chrono::duration<double>(waited).count()) +
                        " s; still pending:" + pending());
  }
  return false;
}

// With the progress thread on the caller's one core, the caller sleeps while it waits, so
// that the thread, which does the exchange's work, has the core.
void ExchangeProgress::sleep_until_completed(std::uint64_t exchange) {
  const auto done = [&] {
    return completed() >= exchange || errors_.failed() || errors_.abort_requested();
  };
  std::unique_lock<std::mutex> lock(completion_mutex_);
  while (!done()) completion_wakeup_.wait_for(lock, kCallerSleepSlice, done);
}

// The progress thread completed an exchange or failed: a sleeping caller looks again.
void ExchangeProgress::wake_caller() {
  if (!shares_core_) return;
  { const std::lock_guard<std::mutex> lock(completion_mutex_); }
  completion_wakeup_.notify_all();
}

// Progress::thread: the CPU side of every started exchange, until the Exchange ends or fails.
void ExchangeProgress::run_thread() {
  auto last_work = Clock::now();
  while (!stop_progress_.load(std::memory_order_acquire) && !errors_.failed()) {
    if (running()) {
      const std::uint64_t completed_before = completed();
      try {
        guarded([&] { (void)advance(); });
      } catch (const std::exception&) {  // kept for the caller by ExchangeErrors::fail()
      }
      if (completed() != completed_before || errors_.failed()) wake_caller();
      last_work = Clock::now();
      std::this_thread::yield();
      continue;
    }
    // On the caller's one core it sleeps at once: the caller needs the core to start more.
    if (!shares_core_ && Clock::now() - last_work < kProgressSpin) {
      std::this_thread::yield();
      continue;
    }
    std::unique_lock<std::mutex> lock(progress_mutex_);
    progress_wakeup_.wait(lock, [&] {
      return stop_progress_.load(std::memory_order_acquire) || running();
    });
    last_work = Clock::now();
  }
}

// After abort(): the error of the exchange in progress (naming what it still waited for) or
// of the next call, with the reason.
void ExchangeProgress::throw_if_abort_requested() const {
  if (!errors_.abort_requested()) return;
  throw ExchangeError(ErrorKind::usage, "aborted: " + errors_.abort_reason() +
                      (running() ? "; still pending:" + pending() : std::string()));
}

// The exchange the calling thread works on: the CPU side's own while it has one (several may
// have been started on a stream), else the last started.
std::uint64_t ExchangeProgress::exchange_in_hand() const {
  const bool cpu_side = progress_thread_.joinable()
                            ? std::this_thread::get_id() == progress_thread_.get_id()
                            : true;
  return cpu_side && cpu_epoch_ != 0 ? cpu_epoch_ : epoch();
}

// What the exchange in hand still waits for: the strategy's, then each transport's.
std::string ExchangeProgress::pending() const {
  std::string text = parts_.strategy->pending();
  for (const auto& half : parts_.host_halves) text += half->pending(exchange_in_hand());
  return text;
}

}  // namespace haloflag::halo::detail
