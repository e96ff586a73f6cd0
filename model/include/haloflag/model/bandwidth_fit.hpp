/// @file
/// Fitting the K-model's rates R_Cb and R_Ci to the aggregate bandwidth of 1..k concurrent flows:
/// aggregate(f) = R_Cb + (f - 1) * R_Ci, the denominator of Eq. 4 (used by the calibration tools).
#pragma once

#include <span>
#include <string>

namespace haloflag::model {

/// R_Cb and R_Ci fitted to bandwidths measured at several flow counts.
struct BandwidthFit {
  double r_cb = 0.0;  ///< B/s
  double r_ci = 0.0;  ///< B/s
  int points = 0;  ///< measurements fitted
  double rms_relative_residual = 0.0;  ///< RMS of the relative residuals
  /// R_Ci <= 1% of R_Cb (a saturated link, or a single flow count) is raised to 1% of R_Cb,
  /// because parameter files need rates > 0; `clamp_reason` says why.
  bool r_ci_clamped = false;
  std::string clamp_reason;  ///< why r_ci was clamped, when it was
};

/// Ordinary least squares over (flows, aggregate bytes/s). Flows >= 1, bandwidths > 0, at least
/// one point; throws std::invalid_argument otherwise. With one flow count R_Cb is that bandwidth.
BandwidthFit fit_bandwidth(std::span<const double> flows, std::span<const double> aggregate_bandwidth);

}  // namespace haloflag::model
