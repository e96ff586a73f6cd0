#include "size_time_table.hpp"

#include <cstdio>

namespace haloflag::model::calibration {

void print_size_time_heading(const char* rate_unit) {
  std::printf("%12s %12s %12s %12s %12s\n", "bytes", "median[us]", "p10[us]", "p90[us]", rate_unit);
}

void print_size_time_row(std::int64_t bytes, const SampleSummary& seconds, double unit_bytes) {
  std::printf("%12lld %12.3f %12.3f %12.3f %12.1f\n", static_cast<long long>(bytes),
              seconds.median * 1e6, seconds.p10 * 1e6, seconds.p90 * 1e6,
              static_cast<double>(bytes) / seconds.median / unit_bytes);
}

}  // namespace haloflag::model::calibration
