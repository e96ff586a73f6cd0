#include "haloflag/notify/flag_array.hpp"

#include <utility>

#include "haloflag/notify/flag_ops.hpp"

namespace haloflag::notify {

FlagArray::FlagArray(ControlBlock& control, std::uint32_t count, FlagWriter writer, std::string name)
    : control_(&control), writer_(writer), memory_(control.backend(), sizeof(FlagLine) * count) {
  if (count == 0) throw NotifyError(ErrorKind::usage, "flag array '" + name + "' must hold at least one flag");
  view_.lines = static_cast<FlagLine*>(memory_.host());
  view_.count = count;
  view_.array_id = control.register_array(std::move(name));
}

FlagArrayView FlagArray::device_view() const {
  FlagArrayView view = view_;
  view.lines = static_cast<FlagLine*>(memory_.device());
  return view;
}

void FlagArray::check_index(std::uint32_t index, const char* operation) const {
  if (index >= view_.count) {
    throw NotifyError(ErrorKind::usage, std::string(operation) + " on " + name() + "[" + std::to_string(index) +
                      "]: index out of range (size " + std::to_string(view_.count) + ")");
  }
}

void FlagArray::signal(std::uint32_t index, std::uint64_t epoch) {
  check_index(index, "signal");
  if (writer_ != FlagWriter::host) {
    throw NotifyError(ErrorKind::usage, "signal on " + name() + "[" + std::to_string(index) +
                      "] from the host: this array is written by the device only");
  }
  // The host is the single writer, so reading its own last value is race-free.
  const std::uint64_t current = load_relaxed_system(view_.word(index));
  if (epoch < current) {
    throw NotifyError(ErrorKind::usage, "signal on " + name() + "[" + std::to_string(index) + "] with epoch " +
                      std::to_string(epoch) + " below the current " + std::to_string(current) +
                      ": epochs are monotonic and never reset");
  }
  signal_flag(view_, index, epoch);
}

bool FlagArray::test(std::uint32_t index, std::uint64_t epoch) const {
  check_index(index, "test");
  return poll_flag(view_, index, epoch);
}

void FlagArray::wait(std::uint32_t index, std::uint64_t epoch, std::uint32_t waiter) const {
  check_index(index, "wait");
  const WaitControl control = control_->host_control();
  const std::uint64_t start = clock_ns();
  const WaitOutcome outcome = wait_flag(view_, index, epoch, control, Side::host, waiter);
  if (outcome == WaitOutcome::ready) return;
  WaitFailure failure;
  failure.side = Side::host;
  failure.outcome = outcome;
  failure.array_name = name();
  failure.index = index;
  failure.expected_epoch = epoch;
  failure.last_seen = value(index);
  failure.waited_ns = clock_ns() - start;
  failure.waiter = waiter;
  throw FlagWaitError(std::move(failure));
}

std::uint64_t FlagArray::value(std::uint32_t index) const {
  check_index(index, "value");
  return load_acquire_system(view_.word(index));
}

}  // namespace haloflag::notify
