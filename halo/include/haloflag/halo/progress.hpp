/// @file
/// Who runs the CPU state machine of an exchange's MPI peers (ExchangeOptions::progress).
#pragma once

#include <string_view>

namespace haloflag::halo {

/// Who runs an Exchange's CPU state machine.
enum class Progress {
  /// The caller: start(), progress() and finish() run it on the caller's thread.
  caller,
  /// A progress thread the Exchange owns runs it from start() on; progress() and finish() only
  /// report. It calls MPI while the caller may too, so MPI must be initialised with
  /// MPI_THREAD_MULTIPLE (checked at construction). It needs CPU time while the exchanges run:
  /// where mpiexec binds a rank to one core, a caller that spins meanwhile (a stream
  /// synchronisation does by default) starves it; finish() yields to it.
  thread,
};

/// The choice's name.
std::string_view to_string(Progress progress);
/// Throws std::invalid_argument naming the valid choices ("caller", "thread").
Progress parse_progress(std::string_view name);

}  // namespace haloflag::halo
