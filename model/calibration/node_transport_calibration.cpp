#include "node_transport_calibration.hpp"

#include <stdexcept>

namespace haloflag::model::calibration {

NodeTransportFit fit_node_transport(const NodeCalibration& calibration) {
  std::vector<std::int64_t> sizes;
  std::vector<double> medians;
  for (const NodeCopyTiming& timing : calibration.copies) {
    sizes.push_back(timing.bytes);
    medians.push_back(timing.per_copy_seconds.median);
  }
  if (sizes.size() < 2) {
    throw std::invalid_argument("node copy fit: needs at least 2 sizes, got " +
                                std::to_string(sizes.size()));
  }
  if (!(calibration.flag_one_way_seconds.median > 0.0)) {
    throw std::invalid_argument("flag latency: the median one-way time is not > 0 (" +
                                std::to_string(calibration.flag_one_way_seconds.median) + " s)");
  }
  NodeTransportFit fit;
  fit.copy = fit_postal(sizes, medians);
  fit.params.copy_latency = fit.copy.params.alpha;
  fit.params.copy_bandwidth = 1.0 / fit.copy.params.beta;
  fit.params.flag_latency = calibration.flag_one_way_seconds.median;
  return fit;
}

}  // namespace haloflag::model::calibration
