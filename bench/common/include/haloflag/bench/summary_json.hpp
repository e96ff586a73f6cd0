// A sample summary (model/calibration's SampleSummary) as the reports write it.
#pragma once

#include <nlohmann/json.hpp>

#include "sample_summary.hpp"

namespace haloflag::bench {

// count, median, p10, p90, min, max, mean.
inline nlohmann::json summary_json(const model::calibration::SampleSummary& summary) {
  return {{"count", summary.count}, {"median", summary.median}, {"p10", summary.p10},
          {"p90", summary.p90},     {"min", summary.min},       {"max", summary.max},
          {"mean", summary.mean}};
}

}  // namespace haloflag::bench
