// The table the calibration tools print of one time per message size: the bytes, the median,
// p10 and p90 in microseconds, and the rate at the median.
#pragma once

#include <cstdint>

#include "sample_summary.hpp"

namespace haloflag::model::calibration {

// The heading; `rate_unit` names the last column ("MB/s").
void print_size_time_heading(const char* rate_unit);
// The row of `bytes` taking `seconds`; the rate is in units of `unit_bytes` per second (1e6 for
// MB/s).
void print_size_time_row(std::int64_t bytes, const SampleSummary& seconds, double unit_bytes);

}  // namespace haloflag::model::calibration
