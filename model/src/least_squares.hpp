// Weighted least squares of a straight line (internal to the fits).
#pragma once

#include <span>

namespace haloflag::model::detail {

struct Line {
  double intercept = 0.0;
  double slope = 0.0;
};

// Minimises sum w_i (intercept + slope x_i - y_i)^2. Needs >= 2 distinct x with weight > 0;
// throws std::invalid_argument otherwise.
Line fit_line(std::span<const double> x, std::span<const double> y, std::span<const double> w);

// sqrt(mean(((intercept + slope x_i) - y_i) / y_i)^2).
double rms_relative_residual(const Line& line, std::span<const double> x, std::span<const double> y);

}  // namespace haloflag::model::detail
