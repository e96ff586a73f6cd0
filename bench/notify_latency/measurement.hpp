// One measured quantity of the run: its samples, their summary, and what a sample is, so the
// table and the JSON report can say exactly what was timed.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "latency_summary.hpp"

namespace haloflag::bench {

struct Measurement {
  std::string id;                            // stable key in the JSON report, e.g. "round_trip"
  std::string title;                         // table row, e.g. "round trip CPU -> GPU -> CPU"
  std::string clock;                         // which clock timed it
  std::string sample;                        // what one sample is
  std::uint32_t ops_per_sample = 1;          // samples are a timed window divided by this
  std::vector<double> samples_ns;            // the timed samples (warm-up left out), per operation
  std::optional<LatencySummary> summary_ns;  // empty when not measured
  std::string skipped_reason;                // why not measured; empty when measured
};

// A measured quantity from its samples.
Measurement measured(std::string id, std::string title, std::string clock, std::string sample,
                     std::vector<double> samples_ns, std::uint32_t ops_per_sample = 1);
// A quantity this run cannot measure, and why.
Measurement skipped(std::string id, std::string title, std::string reason);

// median(numerator) / median(denominator) when both were measured.
std::optional<double> median_ratio(const Measurement& numerator, const Measurement& denominator);

}  // namespace haloflag::bench
