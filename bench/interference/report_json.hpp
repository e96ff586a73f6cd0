// The JSON report (format "haloflag-interference", version 1; bench/README.md lists the keys):
// machine, versions, command line, every parameter, and every case with its raw samples.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "run_report.hpp"

namespace haloflag::bench::interference {

nlohmann::json make_report_json(const RunReport& report);

}  // namespace haloflag::bench::interference
