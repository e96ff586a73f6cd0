#include "haloflag/notify/control_block.hpp"

#include <utility>

#include "haloflag/notify/system_atomics.hpp"

namespace haloflag::notify {

namespace {

std::uint64_t to_timeout_ns(std::chrono::nanoseconds timeout) {
  if (timeout.count() <= 0) {
    throw NotifyError(ErrorKind::usage, "wait timeout must be positive (got " + std::to_string(timeout.count()) + " ns)");
  }
  return static_cast<std::uint64_t>(timeout.count());
}

}  // namespace

ControlBlock::ControlBlock(Backend backend, std::chrono::nanoseconds timeout)
    : memory_(backend, sizeof(ControlWords)), timeout_(timeout) {
  to_timeout_ns(timeout);  // validates
}

WaitControl ControlBlock::device_control() const {
  return WaitControl{static_cast<ControlWords*>(memory_.device()), to_timeout_ns(timeout_),
                     static_cast<std::uint32_t>(poll_backoff_.count())};
}

WaitControl ControlBlock::host_control() const {
  return WaitControl{words(), to_timeout_ns(timeout_),
                     static_cast<std::uint32_t>(poll_backoff_.count())};
}

void ControlBlock::set_timeout(std::chrono::nanoseconds timeout) {
  to_timeout_ns(timeout);
  timeout_ = timeout;
}

void ControlBlock::raise_abort() { store_release_system(&words()->abort.epoch, 1); }

void ControlBlock::set_poll_backoff(std::chrono::nanoseconds backoff) {
  if (backoff.count() < 0 || backoff > std::chrono::milliseconds(1)) {
    throw NotifyError(ErrorKind::usage, "poll back-off must be 0 to 1 ms (got " + std::to_string(backoff.count()) +
                      " ns)");
  }
  poll_backoff_ = backoff;
}

bool ControlBlock::abort_raised() const { return load_acquire_system(&words()->abort.epoch) != 0; }

std::optional<WaitFailure> ControlBlock::failure(Side side) const {
  const WaitFailureRecord& record = words()->failure[static_cast<std::uint32_t>(side)];
  if (load_acquire_system(&record.published) == 0) return std::nullopt;
  WaitFailure failure;
  failure.side = side;
  failure.outcome = static_cast<WaitOutcome>(record.outcome);
  failure.array_name = record.array_id < array_names_.size()
                           ? array_names_[record.array_id]
                           : "flag array #" + std::to_string(record.array_id);
  failure.index = record.index;
  failure.expected_epoch = record.expected_epoch;
  failure.last_seen = record.last_seen;
  failure.waited_ns = record.waited_ns;
  failure.waiter = record.waiter;
  return failure;
}

void ControlBlock::throw_if_device_failed() const {
  if (auto recorded = failure(Side::device)) throw FlagWaitError(std::move(*recorded));
}

std::uint32_t ControlBlock::register_array(std::string name) {
  array_names_.push_back(std::move(name));
  return static_cast<std::uint32_t>(array_names_.size() - 1);
}

const std::string& ControlBlock::array_name(std::uint32_t id) const { return array_names_.at(id); }

}  // namespace haloflag::notify
