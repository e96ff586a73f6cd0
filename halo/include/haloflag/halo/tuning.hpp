/// @file
/// What tuning the orders of work chooses and reports: which order is fastest depends on the
/// machine, the MPI library and the transport, so tune() (haloflag/halo/tune.hpp) times the
/// candidates on this machine and keeps the fastest (docs/exchange.md, "Tuning at set-up").
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace haloflag::halo {

/// ExchangeOptions::tuning. The Exchange constructor runs only fixed options: tuning is asked for
/// by calling tune() or Exchange::tuned(), whose options come back fixed.
enum class Tuning {
  fixed,      ///< the options as given
  /// refused by the Exchange constructor (ConfigError naming tune()), so that code written when
  /// the constructor tuned fails at once instead of running untuned
  automatic,
};

/// The choice's name.
std::string_view to_string(Tuning tuning);
/// Throws std::invalid_argument naming the valid choices ("fixed", "auto").
Tuning parse_tuning(std::string_view name);

/// One order of work: the options tune() chooses (ExchangeOptions): four for the MPI messages,
/// and for the node transport's the piece size and the node grid's block size.
struct WorkOrder {
  bool long_receives_on_arrival = true;  ///< AdvancedOptions::long_receives_on_arrival
  bool long_sends_in_turn = false;  ///< AdvancedOptions::long_sends_in_turn
  int long_receive_blocks = 3;  ///< LaunchSettings::long_receive_blocks
  int node_piece_bytes = 0;     ///< LaunchSettings::node_piece_bytes; 0: as given (no node peer)
  int node_threads = 0;         ///< LaunchSettings::node_threads; 0: as given
  /// AdvancedOptions::mpi_piece_bytes (0: whole); -1: as given (no MPI peer)
  std::int64_t mpi_piece_bytes = -1;

  /// e.g. "long receives on arrival, long sends in turn, 3 blocks per long receive".
  std::string describe() const;
  /// Equal in every field.
  bool operator==(const WorkOrder&) const = default;
};

/// One order of work tune() measured.
struct TunedCandidate {
  WorkOrder order;  ///< the order measured
  /// Median time of one exchange, the slowest rank's, in microseconds; negative when the
  /// candidate could not be set up (e.g. its grid cannot be co-resident).
  double median_us = -1.0;
  std::string skipped_because;  ///< set when it could not be set up
};

/// A candidate replaces the given order only when it is faster by more than this fraction of the
/// given order's time: closer than that is within a run's noise, and a tuned order is never
/// meant to be slower than the given one.
inline constexpr double kTuningMargin = 0.03;

/// What tune() chose, and why (TunedOptions::report, Exchange::tuning()). `tuned` is false for
/// an Exchange built with fixed options, and for strategies with nothing to choose (the bulk
/// strategies); `reason` then says which.
struct TuningReport {
  bool tuned = false;  ///< whether orders were measured
  std::string reason;  ///< why not, when not tuned
  WorkOrder chosen;  ///< the order the Exchange runs with
  int exchanges_per_candidate = 0;  ///< exchanges timed per candidate
  std::vector<TunedCandidate> candidates;  ///< every order measured

  /// One line for headings: "auto: <chosen> (fastest of N, M exchanges each)" or the reason.
  std::string summary() const;
};

}  // namespace haloflag::halo
