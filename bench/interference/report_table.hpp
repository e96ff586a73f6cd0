// The human-readable output of rank 0: a heading naming the machine and the set-up, one row per
// case as it is measured, and a footer.
#pragma once

#include <ostream>

#include "case_result.hpp"
#include "run_report.hpp"

namespace haloflag::bench::interference {

void print_heading(std::ostream& out, const RunReport& report);
void print_row(std::ostream& out, const CaseResult& result);
void print_footer(std::ostream& out, const RunReport& report);

}  // namespace haloflag::bench::interference
