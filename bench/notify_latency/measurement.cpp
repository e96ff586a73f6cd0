#include "measurement.hpp"

#include <utility>

namespace haloflag::bench {

Measurement measured(std::string id, std::string title, std::string clock, std::string sample,
                     std::vector<double> samples_ns, std::uint32_t ops_per_sample) {
  Measurement result;
  result.id = std::move(id);
  result.title = std::move(title);
  result.clock = std::move(clock);
  result.sample = std::move(sample);
  result.ops_per_sample = ops_per_sample;
  result.summary_ns = summarize_latency(samples_ns);
  result.samples_ns = std::move(samples_ns);
  return result;
}

Measurement skipped(std::string id, std::string title, std::string reason) {
  Measurement result;
  result.id = std::move(id);
  result.title = std::move(title);
  result.skipped_reason = std::move(reason);
  return result;
}

std::optional<double> median_ratio(const Measurement& numerator, const Measurement& denominator) {
  if (!numerator.summary_ns || !denominator.summary_ns || denominator.summary_ns->median <= 0.0) {
    return std::nullopt;
  }
  return numerator.summary_ns->median / denominator.summary_ns->median;
}

}  // namespace haloflag::bench
