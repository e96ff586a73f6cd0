// Internal: how an Exchange's failure is recorded and told. A failed step marks the Exchange
// unusable, raises the abort flag so that the kernels stop waiting and abandons the transports;
// the progress thread's error is kept until the caller's next call reports it; abort() keeps
// its reason. Every text names rank, exchange, strategy and backend, and a device wait's failure
// what it waited for. Shared by the caller's thread and the progress thread.
#pragma once

#include <atomic>
#include <cstdint>
#include <exception>
#include <mutex>
#include <string>

#include "exchange/exchange_setup.hpp"
#include "haloflag/halo/errors.hpp"
#include "haloflag/notify/errors.hpp"

namespace haloflag::halo::detail {

class ExchangeErrors {
 public:
  explicit ExchangeErrors(ExchangeParts& parts) : parts_(parts) {}
  ExchangeErrors(const ExchangeErrors&) = delete;
  ExchangeErrors& operator=(const ExchangeErrors&) = delete;

  // "rank R, exchange E (strategy on backend): ", the start of every error of exchange E.
  std::string prefix(std::uint64_t exchange) const;

  // What a failed step does: marks the Exchange failed, raises the abort flag so the kernels stop
  // waiting, abandons the transports and throws an ExchangeError naming `exchange` and `error`.
  // On the progress thread the text is kept first, for the caller's next call to report.
  [[noreturn]] void fail(const std::exception& error, std::uint64_t exchange,
                         bool on_progress_thread);
  bool failed() const { return failed_.load(); }
  // After a failure: the progress thread's error, once, else that `call` finds this Exchange
  // unusable (with abort()'s reason if any). `exchange`: the last started.
  [[noreturn]] void throw_unusable(const char* call, std::uint64_t exchange);

  // abort(): may be called from any thread. Keeps the first reason, then raises the flag that
  // every wait reads; the Exchange's own thread throws at its next call.
  void request_abort(std::string reason);
  bool abort_requested() const { return abort_requested_.load(std::memory_order_acquire); }
  std::string abort_reason() const;

  // A device wait's failure, with what it waited for, ending "; still pending:" for the list of
  // what the CPU side still waits for.
  std::string describe_device_failure(const notify::WaitFailure& failure) const;

 private:
  std::string waiting_for_start_text() const;

  ExchangeParts& parts_;
  std::atomic<bool> failed_{false};
  std::string thread_error_;  // the progress thread's failure, not reported yet
  ErrorKind thread_error_kind_ = ErrorKind::other;
  std::atomic<bool> abort_requested_{false};
  mutable std::mutex abort_mutex_;  // thread_error_, thread_error_kind_ and abort_reason_
  std::string abort_reason_;
};

}  // namespace haloflag::halo::detail
