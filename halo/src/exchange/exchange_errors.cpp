// How an Exchange's failure is recorded and told (exchange_errors.hpp).
#include "exchange/exchange_errors.hpp"

#include <string>
#include <utility>

#include "haloflag/halo/exchange_options.hpp"
#include "haloflag/halo/strategy.hpp"

namespace haloflag::halo::detail {

std::string ExchangeErrors::prefix(std::uint64_t exchange) const {
  return "rank " + std::to_string(parts_.rank) + ", exchange " + std::to_string(exchange) + " (" +
         std::string(to_string(parts_.options.strategy)) + " on " +
         std::string(notify::to_string(parts_.options.backend)) + "): ";
}

void ExchangeErrors::fail(const std::exception& error, std::uint64_t exchange,
                          bool on_progress_thread) {
  std::string text = prefix(exchange) + error.what();
  const ErrorKind kind = kind_of(error);
  if (on_progress_thread) {
    // Kept before the Exchange is marked failed, so the caller's next call reports it.
    const std::lock_guard<std::mutex> lock(abort_mutex_);
    thread_error_ = text;
    thread_error_kind_ = kind;
  }
  failed_.store(true);
  parts_.resources->control.raise_abort();
  for (auto& half : parts_.host_halves) half->abandon();
  throw ExchangeError(kind, text);
}

void ExchangeErrors::throw_unusable(const char* call, std::uint64_t exchange) {
  {
    // The progress thread's error is reported once, by the caller's next call.
    const std::lock_guard<std::mutex> lock(abort_mutex_);
    if (!thread_error_.empty()) {
      throw ExchangeError(thread_error_kind_, std::exchange(thread_error_, {}));
    }
  }
  const std::string reason = abort_reason();
  throw ExchangeError(ErrorKind::usage, prefix(exchange) + call + " after a failed exchange" +
                      (reason.empty() ? std::string() : " (aborted: " + reason + ")") +
                      ": this Exchange is unusable");
}

void ExchangeErrors::request_abort(std::string reason) {
  {
    const std::lock_guard<std::mutex> lock(abort_mutex_);
    if (abort_reason_.empty()) abort_reason_ = reason.empty() ? "no reason given" : reason;
  }
  abort_requested_.store(true, std::memory_order_release);
  parts_.resources->control.raise_abort();
}

std::string ExchangeErrors::abort_reason() const {
  const std::lock_guard<std::mutex> lock(abort_mutex_);
  return abort_reason_;
}

std::string ExchangeErrors::describe_device_failure(const notify::WaitFailure& failure) const {
  std::string text = failure.describe();
  if (failure.outcome == notify::WaitOutcome::out_of_order) {
    return text + " (the epoch passed to embedded_pack/embedded_unpack; docs/embedding.md)" +
           "; still pending:";
  }
  if (failure.array_name == "unpack_ready" && failure.index < parts_.messages.recvs.size()) {
    text += ", waiting for the " + parts_.names->recv(failure.index);
  } else if (failure.array_name == "pack_start") {
    text += waiting_for_start_text();
  } else {
    // A flag of one transport's own: that transport says what it waited for.
    for (const auto& transport : parts_.transports) text += transport->explain_wait(failure);
  }
  return text + "; still pending:";
}

// What a wait on pack_start (or its relays) that failed was doing, and what likely held it.
std::string ExchangeErrors::waiting_for_start_text() const {
  const ExchangeOptions& options = parts_.options;
  if (options.strategy == Strategy::embedded) {
    return ", waiting for this rank's start() of that exchange (the caller's kernel waits for it "
           "at most the timeout)";
  }
  if (options.idle_exit == kIdleExitNever) {
    return ", waiting for the next exchange to start: with idle_exit = never the resident "
           "kernels wait at most the timeout between exchanges and stay on the GPU meanwhile, "
           "so a device-wide wait in the program (a synchronize, a free such as cudaFree, "
           "empty_cache() or free_all_blocks(), a kernel's first lazy load) holds until this "
           "deadline";
  }
  return ", waiting for the start of an exchange that start() or start(stream) had promised: "
         "the resident kernels stay on the GPU for a promised start, and its store did not "
         "reach the GPU within the idle window and the timeout (the stream given to "
         "start(stream) had not reached it: work before it on that stream, or a wait there for "
         "something that never came)";
}

}  // namespace haloflag::halo::detail
