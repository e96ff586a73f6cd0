// What is exchanged: the communication config of the run, from a config file, from Comb-style
// geometry, or the default for the number of ranks.
#pragma once

#include <optional>
#include <string>

#include "bench_options.hpp"
#include "haloflag/halo/exchange_config.hpp"
#include "haloflag/halo/geometry_spec.hpp"

namespace haloflag::bench {

struct Workload {
  halo::ExchangeConfig config;
  std::string config_file;    // the file read; empty when built from geometry
  std::optional<halo::GeometrySpec> geometry;  // when built from geometry arguments
  bool is_default = false;    // chosen because no --config or --size was given
  std::string description;    // one line: domain, grid, periodicity, ghost, vars, neighbours
};

// Throws UsageError when the config is for another number of ranks or the geometry cannot be
// decomposed over `ranks`; ConfigError for a bad config file.
Workload resolve_workload(const BenchOptions& options, int ranks);

}  // namespace haloflag::bench
