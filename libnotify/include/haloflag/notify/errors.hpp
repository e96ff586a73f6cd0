/// @file
/// Exceptions of the flag API. Messages name what failed: the call and file:line for runtime
/// errors; the flag array, index, epochs and side for failed waits.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

#include "haloflag/error.hpp"
#include "haloflag/notify/wait_control.hpp"

namespace haloflag::notify {

/// The flag API's errors: a GPU runtime call that failed (kind gpu) unless the thrower says
/// otherwise (a flag index out of range is usage).
class NotifyError : public Error {
 public:
  /// A GPU runtime failure with message `what`.
  explicit NotifyError(const std::string& what) : Error(ErrorKind::gpu, what) {}
  /// A failure of `kind` with message `what`.
  NotifyError(ErrorKind kind, const std::string& what) : Error(kind, what) {}
};

/// A decoded failure record: a wait that timed out or was aborted.
struct WaitFailure {
  Side side = Side::host;  ///< which side's wait failed
  WaitOutcome outcome = WaitOutcome::timed_out;  ///< why it failed
  std::string array_name;  ///< the flag array waited on
  std::uint32_t index = 0;  ///< the flag waited on, within the array
  std::uint64_t expected_epoch = 0;  ///< the epoch the wait expected
  std::uint64_t last_seen = 0;  ///< the flag's value when the wait gave up
  std::uint64_t waited_ns = 0;  ///< how long the wait lasted
  std::uint32_t waiter = 0;  ///< block (device) or caller-chosen id (host) that waited

  /// e.g. "device-side wait on send_ready[3] timed out after 2.000 s: expected epoch >= 42,
  ///       last seen 41 (block 3)"
  std::string describe() const;
};

/// Kind timeout, or usage when the wait was aborted.
class FlagWaitError : public NotifyError {
 public:
  /// An error describing `failure`.
  explicit FlagWaitError(WaitFailure failure);
  /// The failed wait this error reports.
  const WaitFailure& failure() const { return failure_; }

 private:
  WaitFailure failure_;
};

}  // namespace haloflag::notify
