#include "least_squares.hpp"

#include <cmath>
#include <stdexcept>

namespace haloflag::model::detail {

Line fit_line(std::span<const double> x, std::span<const double> y, std::span<const double> w) {
  if (x.size() != y.size() || x.size() != w.size()) {
    throw std::invalid_argument("line fit: x, y and weights differ in length");
  }
  // Centred sums keep the normal equations well conditioned across decades of sizes.
  double sw = 0.0, swx = 0.0, swy = 0.0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    sw += w[i];
    swx += w[i] * x[i];
    swy += w[i] * y[i];
  }
  if (!(sw > 0.0)) throw std::invalid_argument("line fit: no point has a positive weight");
  const double mx = swx / sw;
  const double my = swy / sw;
  double sxx = 0.0, sxy = 0.0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    sxx += w[i] * (x[i] - mx) * (x[i] - mx);
    sxy += w[i] * (x[i] - mx) * (y[i] - my);
  }
  if (!(sxx > 0.0)) throw std::invalid_argument("line fit: needs at least two distinct x values");
  const double slope = sxy / sxx;
  return {my - slope * mx, slope};
}

double rms_relative_residual(const Line& line, std::span<const double> x, std::span<const double> y) {
  if (x.empty()) return 0.0;
  double sum = 0.0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double relative = (line.intercept + line.slope * x[i] - y[i]) / y[i];
    sum += relative * relative;
  }
  return std::sqrt(sum / static_cast<double>(x.size()));
}

}  // namespace haloflag::model::detail
