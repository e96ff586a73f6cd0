#include "haloflag/notify/errors.hpp"

#include <cstdio>
#include <utility>

namespace haloflag::notify {

std::string WaitFailure::describe() const {
  const bool on_device = side == Side::device;
  char seconds[32];
  std::snprintf(seconds, sizeof seconds, "%.3f s", static_cast<double>(waited_ns) * 1e-9);
  std::string text = on_device ? "device-side wait on " : "host-side wait on ";
  text += array_name + "[" + std::to_string(index) + "] ";
  const std::string who =
      std::string(" (") + (on_device ? "block " : "waiter ") + std::to_string(waiter) + ")";
  if (outcome == WaitOutcome::wrong_build) {
    return text + "refused at once for epoch " + std::to_string(expected_epoch) +
           ": the kernel was built without the node transport's lines (LinesCode::absent) and "
           "a node peer of its plan sends or takes lines; launch the build "
           "with_embedded_lines_build names" + who;
  }
  if (outcome == WaitOutcome::wrong_fields) {
    return text + "refused for epoch " + std::to_string(expected_epoch) +
           ": the last exchange's finish said this one takes the fields of slot " +
           std::to_string(last_seen) + " (NextExchange), so the peer was told to place it there, and its plan takes other "
           "fields" + who;
  }
  if (outcome == WaitOutcome::out_of_order) {
    return text + "refused at once: epoch " + std::to_string(expected_epoch) +
           " asked for while the flag shows " + std::to_string(last_seen) +
           "; only that exchange or the next one can be waited for" + who;
  }
  text += outcome == WaitOutcome::aborted ? std::string("aborted after ") + seconds
                                          : std::string("timed out after ") + seconds;
  text += ": expected epoch >= " + std::to_string(expected_epoch) + ", last seen " +
          std::to_string(last_seen) + who;
  return text;
}

FlagWaitError::FlagWaitError(WaitFailure failure)
    : NotifyError(failure.outcome == WaitOutcome::timed_out ? ErrorKind::timeout
                                                            : ErrorKind::usage,
                  failure.describe()),
      failure_(std::move(failure)) {}

}  // namespace haloflag::notify
