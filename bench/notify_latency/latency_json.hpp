// The JSON view of a run (format "haloflag-notify-latency", version 1): machine, build, every
// parameter, each measurement's summary and all its samples, the same-run ratios and targets.
// Layout: bench/README.md, section notify_latency.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "latency_report.hpp"

namespace haloflag::bench {

nlohmann::json make_latency_json(const LatencyReport& report);

// Throws std::runtime_error naming the file when it cannot be written.
void write_latency_json(const std::string& path, const nlohmann::json& report);

}  // namespace haloflag::bench
