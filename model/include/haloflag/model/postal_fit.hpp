/// @file
/// Fitting the postal parameters alpha and beta to ping-pong times, on each side of the
/// eager/rendezvous switch, and finding that switch (used by the calibration tools).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "haloflag/model/link_params.hpp"

namespace haloflag::model {

/// A postal fit (alpha, beta) to measured message times, with its quality.
struct PostalFit {
  PostalParams params;  ///< the fitted alpha and beta
  int points = 0;  ///< measurements fitted
  std::int64_t min_bytes = 0;  ///< smallest size fitted
  std::int64_t max_bytes = 0;  ///< largest size fitted
  /// sqrt(mean((T_fit - T) / T)^2): the fit minimises relative error, so that the small sizes
  /// (which fix alpha) weigh as much as the large ones (which fix beta).
  double rms_relative_residual = 0.0;
  /// A coefficient came out <= 0 (noise, flat times) and was set to a floor: alpha to 1% of the
  /// smallest time, beta to 0.1% of the largest time per byte; `clamp_reason` says which.
  bool clamped = false;
  std::string clamp_reason;  ///< which coefficient was clamped, when one was
  /// No measured size fell on this side of a given threshold: the other side's fit stands in.
  bool borrowed = false;
};

/// Least squares of T = alpha + beta * n with weights 1/T^2, at least 2 points, every time > 0
/// and sizes not all equal; throws std::invalid_argument otherwise.
PostalFit fit_postal(std::span<const std::int64_t> bytes, std::span<const double> seconds);

/// Postal fits on either side of an eager/rendezvous switch.
struct ProtocolSwitchFit {
  std::int64_t threshold_bytes = 0;  ///< largest size on the eager side
  /// "given": --threshold; "detected": the best two-line split; "none": no switch found, both
  /// sets are the single-line fit and every measured size is eager.
  std::string method;
  PostalFit eager;  ///< the fit of the sizes up to the threshold
  PostalFit rendezvous;  ///< the fit of the sizes above the threshold
  double single_line_rms_relative_residual = 0.0;  ///< residual of one line through every size
  double two_line_rms_relative_residual = 0.0;  ///< residual of the two lines split at the threshold
};

/// Sizes strictly increasing (one median time each). Detection tries every split leaving >= 3
/// points per side and keeps the one with the least total weighted residual; the switch counts as
/// detected when one line misses by > 3% rms and two lines at least halve that. With
/// `given_threshold`, sizes <= it are eager; a side with < 2 points borrows the other's fit.
ProtocolSwitchFit fit_protocol_switch(std::span<const std::int64_t> bytes,
                                      std::span<const double> seconds,
                                      std::optional<std::int64_t> given_threshold = std::nullopt);

}  // namespace haloflag::model
