#include "haloflag/model/bandwidth_fit.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "least_squares.hpp"

namespace haloflag::model {

namespace {

constexpr double kRciFloorFraction = 0.01;  // of R_Cb

}  // namespace

BandwidthFit fit_bandwidth(std::span<const double> flows, std::span<const double> aggregate_bandwidth) {
  if (flows.size() != aggregate_bandwidth.size()) {
    throw std::invalid_argument("bandwidth fit: flow counts and bandwidths differ in length");
  }
  if (flows.empty()) throw std::invalid_argument("bandwidth fit: no measurements");
  std::vector<double> x, y;
  for (std::size_t i = 0; i < flows.size(); ++i) {
    if (!(flows[i] >= 1.0)) throw std::invalid_argument("bandwidth fit: a flow count is < 1");
    if (!(aggregate_bandwidth[i] > 0.0)) {
      throw std::invalid_argument("bandwidth fit: bandwidth of " + std::to_string(flows[i]) +
                                  " flows is not > 0");
    }
    x.push_back(flows[i] - 1.0);
    y.push_back(aggregate_bandwidth[i]);
  }

  BandwidthFit fit;
  fit.points = static_cast<int>(x.size());
  const bool one_flow_count = std::all_of(x.begin(), x.end(), [&](double v) { return v == x[0]; });
  double r_cb = 0.0;
  double r_ci = 0.0;
  if (one_flow_count) {
    for (double v : y) r_cb += v;
    r_cb /= static_cast<double>(y.size());
    fit.clamp_reason = "only one flow count was measured";
  } else {
    const std::vector<double> unit(x.size(), 1.0);
    const detail::Line line = detail::fit_line(x, y, unit);
    r_cb = line.intercept;
    r_ci = line.slope;
    if (!(r_cb > 0.0)) {
      // A steep rise from a low single-flow value: R_Cb is what one flow measured.
      const auto fewest = std::min_element(x.begin(), x.end()) - x.begin();
      r_cb = y[static_cast<std::size_t>(fewest)];
      fit.clamp_reason = "the intercept came out <= 0; R_Cb is the fewest flows' bandwidth";
    }
  }
  if (!(r_ci > kRciFloorFraction * r_cb)) {
    fit.r_ci_clamped = true;
    fit.clamp_reason += std::string(fit.clamp_reason.empty() ? "" : "; ") + "R_Ci came out " +
                        std::to_string(r_ci) +
                        " B/s (aggregate bandwidth did not grow with flows); set to 1% of R_Cb";
    r_ci = kRciFloorFraction * r_cb;
  }
  fit.r_cb = r_cb;
  fit.r_ci = r_ci;
  fit.rms_relative_residual = detail::rms_relative_residual({r_cb, r_ci}, x, y);
  return fit;
}

}  // namespace haloflag::model
