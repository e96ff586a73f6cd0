/// @file
/// The abort flag, the per-side failure records and the default deadline shared by every wait
/// of one exchange engine, in mapped memory so kernels read and write them.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "haloflag/notify/backend.hpp"
#include "haloflag/notify/errors.hpp"
#include "haloflag/notify/mapped_allocation.hpp"
#include "haloflag/notify/wait_control.hpp"

namespace haloflag::notify {

/// Default deadline of a flag wait.
inline constexpr std::chrono::nanoseconds kDefaultWaitTimeout = std::chrono::seconds(30);
/// Pause of a GPU thread between two polls of a flag (WaitControl::poll_backoff_ns).
inline constexpr std::chrono::nanoseconds kDefaultPollBackoff = std::chrono::nanoseconds(200);

/// Owns the abort flag and the wait-failure records that every wait of an exchange shares.
class ControlBlock {
 public:
  /// Allocates the control words in mapped memory of `backend`; waits time out after `timeout`.
  explicit ControlBlock(Backend backend, std::chrono::nanoseconds timeout = kDefaultWaitTimeout);

  /// The backend the control words were allocated for.
  Backend backend() const { return memory_.backend(); }

  /// Views for waits performed by kernels (device) and by host code.
  WaitControl device_control() const;
  /// View for waits performed by host code.
  WaitControl host_control() const;

  /// The deadline given to views made now.
  std::chrono::nanoseconds timeout() const { return timeout_; }
  /// Applies to views made afterwards; kernels keep the deadline of the view they were given.
  void set_timeout(std::chrono::nanoseconds timeout);
  /// Applies to views made afterwards; 0 to 1 ms.
  void set_poll_backoff(std::chrono::nanoseconds backoff);

  /// Ends every current and future wait that uses this block. The abort flag is never lowered:
  /// make a new ControlBlock to start over.
  void raise_abort();
  /// Whether raise_abort() has been called.
  bool abort_raised() const;

  /// The first failed wait recorded by `side`, if any.
  std::optional<WaitFailure> failure(Side side) const;
  /// Throws FlagWaitError for the device side's failure, if one was recorded.
  void throw_if_device_failed() const;

  /// Flag arrays register a name so failure records can name them.
  std::uint32_t register_array(std::string name);
  /// The name registered for array `id`.
  const std::string& array_name(std::uint32_t id) const;

 private:
  ControlWords* words() const { return static_cast<ControlWords*>(memory_.host()); }

  MappedAllocation memory_;
  std::chrono::nanoseconds timeout_;
  std::chrono::nanoseconds poll_backoff_ = kDefaultPollBackoff;
  std::vector<std::string> array_names_;
};

}  // namespace haloflag::notify
