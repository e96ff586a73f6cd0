// Internal: the CPU side of an Exchange's exchanges. Which exchange was started last and which
// the CPU side completed; one step of the CPU side (advance: begin the next started exchange,
// drive the strategy, watch the device's failures and the deadline); and the progress thread
// (Progress::thread) that takes those steps instead of the caller, with how the caller waits
// beside it on one core. Every step runs guarded: its failure goes through ExchangeErrors.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <mutex>
#include <string>
#include <thread>

#include "exchange/exchange_errors.hpp"
#include "exchange/exchange_setup.hpp"

namespace haloflag::halo::detail {

class ExchangeProgress {
 public:
  ExchangeProgress(ExchangeParts& parts, ExchangeErrors& errors) : parts_(parts), errors_(errors) {}
  ExchangeProgress(const ExchangeProgress&) = delete;
  ExchangeProgress& operator=(const ExchangeProgress&) = delete;

  // Progress::thread, once set-up is done: the thread takes the CPU side of every exchange.
  void start_thread();
  void stop_thread() noexcept;
  bool has_thread() const { return progress_thread_.joinable(); }
  // The progress thread runs on the caller's one core (mpiexec's default binding).
  bool shares_core() const { return shares_core_; }

  std::uint64_t epoch() const { return epoch_.load(std::memory_order_acquire); }
  // The last exchange the CPU side completed.
  std::uint64_t completed() const { return completed_.load(std::memory_order_acquire); }
  bool running() const {
    return completed_.load(std::memory_order_acquire) != epoch_.load(std::memory_order_acquire);
  }

  // start(): exchange `next` begins now; with a progress thread, as soon as it sees it.
  void start_by_host(std::uint64_t next);
  // Makes exchange `next` the last started one and wakes the progress thread.
  void publish(std::uint64_t next);

  // Exchange::progress(): true once every started exchange is complete.
  bool progress();
  // Returns once `exchange` is complete; a failure before then comes out of progress(). (A
  // failure of a later exchange is left to the next call.)
  void await(std::uint64_t exchange);

  // Throws when an earlier call failed (ExchangeErrors::throw_unusable).
  void check_usable(const char* call) {
    if (errors_.failed()) errors_.throw_unusable(call, epoch());
  }
  // The caller's check before a call that starts or reports: with no exchange in progress the
  // abort is reported here; one in progress is the progress thread's to report (with what it
  // still waited for), or advance()'s.
  void throw_if_aborted_idle();

  // Runs `step`; any error marks the exchange failed, raises the abort flag so the kernels
  // stop waiting, and comes out as an ExchangeError naming rank, epoch and strategy.
  template <class Step>
  void guarded(Step step) {
    try {
      step();
    } catch (const std::exception& error) {
      errors_.fail(error, exchange_in_hand(),
                   std::this_thread::get_id() == progress_thread_.get_id());
    }
  }

 private:
  using Clock = std::chrono::steady_clock;

  bool advance();
  void begin(std::uint64_t next);
  bool step();
  void sleep_until_completed(std::uint64_t exchange);
  void wake_caller();
  void run_thread();
  void throw_if_abort_requested() const;
  std::uint64_t exchange_in_hand() const;
  std::string pending() const;

  ExchangeParts& parts_;
  ExchangeErrors& errors_;
  std::atomic<std::uint64_t> epoch_{0};      // the last exchange started
  std::atomic<std::uint64_t> completed_{0};  // the last exchange the CPU side completed
  std::atomic<std::uint64_t> host_started_{0};  // the last exchange started by start()
  std::uint64_t cpu_epoch_ = 0;  // the exchange the CPU side works on; 0: none
  Clock::time_point started_{};  // when the CPU side began cpu_epoch_
  std::thread progress_thread_;
  std::atomic<bool> stop_progress_{false};
  std::mutex progress_mutex_;
  std::condition_variable progress_wakeup_;
  bool shares_core_ = false;  // the progress thread runs on the caller's one core
  std::mutex completion_mutex_;
  std::condition_variable completion_wakeup_;  // a caller sleeping in await()
};

}  // namespace haloflag::halo::detail
