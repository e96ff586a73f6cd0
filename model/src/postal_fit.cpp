#include "haloflag/model/postal_fit.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "least_squares.hpp"

namespace haloflag::model {

namespace {

// Below these fractions a fitted coefficient counts as noise (see PostalFit::clamped).
constexpr double kAlphaFloorFraction = 0.01;
constexpr double kBetaFloorFraction = 0.001;
// Detection: one line must miss by more than this (rms relative) ...
constexpr double kSwitchMinSingleLineResidual = 0.03;
// ... and two lines must reduce that by at least this factor.
constexpr double kSwitchMinImprovement = 2.0;
constexpr std::size_t kMinPointsPerSide = 3;

PostalFit fit_subrange(std::span<const std::int64_t> bytes, std::span<const double> seconds,
                       std::size_t begin, std::size_t end) {
  return fit_postal(bytes.subspan(begin, end - begin), seconds.subspan(begin, end - begin));
}

double squared_residual_sum(const PostalFit& fit) {
  return fit.rms_relative_residual * fit.rms_relative_residual * fit.points;
}

}  // namespace

PostalFit fit_postal(std::span<const std::int64_t> bytes, std::span<const double> seconds) {
  if (bytes.size() != seconds.size()) {
    throw std::invalid_argument("postal fit: sizes and times differ in length");
  }
  if (bytes.size() < 2) throw std::invalid_argument("postal fit: needs at least 2 sizes");
  std::vector<double> x, y, w;
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    if (!(seconds[i] > 0.0)) {
      throw std::invalid_argument("postal fit: time of " + std::to_string(bytes[i]) +
                                  " B is not > 0");
    }
    x.push_back(static_cast<double>(bytes[i]));
    y.push_back(seconds[i]);
    w.push_back(1.0 / (seconds[i] * seconds[i]));  // relative error
  }
  const detail::Line line = detail::fit_line(x, y, w);

  PostalFit fit;
  fit.points = static_cast<int>(bytes.size());
  fit.min_bytes = *std::min_element(bytes.begin(), bytes.end());
  fit.max_bytes = *std::max_element(bytes.begin(), bytes.end());
  double alpha = line.intercept;
  double beta = line.slope;

  if (!(beta > 0.0)) {
    // Flat or falling times: keep a token per-byte cost and refit alpha alone.
    const auto largest = std::max_element(x.begin(), x.end()) - x.begin();
    beta = kBetaFloorFraction * y[largest] / x[largest];
    double sum_w = 0.0, sum_wr = 0.0;
    for (std::size_t i = 0; i < x.size(); ++i) {
      sum_w += w[i];
      sum_wr += w[i] * (y[i] - beta * x[i]);
    }
    alpha = sum_wr / sum_w;
    fit.clamped = true;
    fit.clamp_reason = "beta came out " + std::to_string(line.slope) +
                       " s/B (<= 0); set to 0.1% of the largest size's time per byte";
  }
  if (!(alpha > 0.0)) {
    // A negative intercept: fix alpha at a small floor and refit beta through it.
    alpha = kAlphaFloorFraction * *std::min_element(y.begin(), y.end());
    double sum_wxx = 0.0, sum_wxr = 0.0;
    for (std::size_t i = 0; i < x.size(); ++i) {
      sum_wxx += w[i] * x[i] * x[i];
      sum_wxr += w[i] * x[i] * (y[i] - alpha);
    }
    if (sum_wxr > 0.0) beta = sum_wxr / sum_wxx;
    fit.clamped = true;
    fit.clamp_reason += std::string(fit.clamp_reason.empty() ? "" : "; ") + "alpha came out " +
                        std::to_string(line.intercept) +
                        " s (<= 0); set to 1% of the smallest time";
  }
  fit.params = {alpha, beta};
  fit.rms_relative_residual = detail::rms_relative_residual({alpha, beta}, x, y);
  return fit;
}

ProtocolSwitchFit fit_protocol_switch(std::span<const std::int64_t> bytes,
                                      std::span<const double> seconds,
                                      std::optional<std::int64_t> given_threshold) {
  if (bytes.size() != seconds.size()) {
    throw std::invalid_argument("protocol switch fit: sizes and times differ in length");
  }
  for (std::size_t i = 1; i < bytes.size(); ++i) {
    if (bytes[i] <= bytes[i - 1]) {
      throw std::invalid_argument("protocol switch fit: sizes must be strictly increasing (" +
                                  std::to_string(bytes[i]) + " after " +
                                  std::to_string(bytes[i - 1]) + ")");
    }
  }
  ProtocolSwitchFit result;
  const PostalFit single = fit_postal(bytes, seconds);
  result.single_line_rms_relative_residual = single.rms_relative_residual;
  const std::size_t n = bytes.size();

  if (given_threshold) {
    result.method = "given";
    result.threshold_bytes = *given_threshold;
    const auto split = static_cast<std::size_t>(
        std::upper_bound(bytes.begin(), bytes.end(), *given_threshold) - bytes.begin());
    const bool eager_ok = split >= 2;
    const bool rendezvous_ok = n - split >= 2;
    result.eager = eager_ok ? fit_subrange(bytes, seconds, 0, split) : single;
    result.rendezvous = rendezvous_ok ? fit_subrange(bytes, seconds, split, n) : single;
    if (eager_ok && !rendezvous_ok) result.rendezvous = result.eager;
    if (rendezvous_ok && !eager_ok) result.eager = result.rendezvous;
    result.eager.borrowed = !eager_ok;
    result.rendezvous.borrowed = !rendezvous_ok;
    result.two_line_rms_relative_residual =
        std::sqrt((squared_residual_sum(result.eager) * (eager_ok ? 1 : 0) +
                   squared_residual_sum(result.rendezvous) * (rendezvous_ok ? 1 : 0)) /
                  static_cast<double>(n));
    return result;
  }

  // Best split: eager = [0, k], rendezvous = [k + 1, n).
  double best_sum = -1.0;
  std::size_t best_k = 0;
  for (std::size_t k = kMinPointsPerSide - 1; k + kMinPointsPerSide < n; ++k) {
    const double sum = squared_residual_sum(fit_subrange(bytes, seconds, 0, k + 1)) +
                       squared_residual_sum(fit_subrange(bytes, seconds, k + 1, n));
    if (best_sum < 0.0 || sum < best_sum) {
      best_sum = sum;
      best_k = k;
    }
  }
  if (best_sum >= 0.0) {
    result.two_line_rms_relative_residual = std::sqrt(best_sum / static_cast<double>(n));
  }
  const bool detected =
      best_sum >= 0.0 && single.rms_relative_residual > kSwitchMinSingleLineResidual &&
      result.two_line_rms_relative_residual * kSwitchMinImprovement <
          single.rms_relative_residual;
  if (!detected) {
    result.method = "none";
    result.threshold_bytes = bytes.empty() ? 0 : bytes.back();
    result.eager = single;
    result.rendezvous = single;
    if (best_sum < 0.0) result.two_line_rms_relative_residual = single.rms_relative_residual;
    return result;
  }
  result.method = "detected";
  result.threshold_bytes = bytes[best_k];
  result.eager = fit_subrange(bytes, seconds, 0, best_k + 1);
  result.rendezvous = fit_subrange(bytes, seconds, best_k + 1, n);
  return result;
}

}  // namespace haloflag::model
