// The human-readable view of a run: a heading before measuring, then Table 1 (ns per read +
// write), the latency and launch table (us), the same-run ratios and the targets.
#pragma once

#include <ostream>

#include "latency_report.hpp"

namespace haloflag::bench {

void print_heading(std::ostream& out, const LatencyReport& report);
void print_results(std::ostream& out, const LatencyReport& report);

}  // namespace haloflag::bench
