// One strategy's measurement: its own Exchange, verified exchanges, warm-up, the timed
// exchanges, and one more verified exchange so that the timed configuration is proven correct;
// then, when asked, the traced pass (traced_exchanges.hpp) with a second Exchange.
#pragma once

#include <mpi.h>

#include <optional>
#include <string>
#include <vector>

#include "haloflag/halo/device_fields.hpp"
#include "haloflag/halo/exchange_config.hpp"
#include "haloflag/halo/exchange_options.hpp"
#include "haloflag/halo/exchange_verifier.hpp"
#include "haloflag/halo/host_field.hpp"
#include "sample_summary.hpp"
#include "traced_exchanges.hpp"

namespace haloflag::bench {

struct VerificationRecord {
  bool possible = true;            // false: the config cannot be verified
  std::string unavailable_reason;
  int exchanges = 0;               // verified exchanges run
  bool passed = true;
  std::vector<std::string> failures;  // on rank 0: "rank R, exchange E: what was wrong"
};

struct StrategyResult {
  halo::Strategy strategy = halo::Strategy::comb_fused;
  std::string launch_description;
  VerificationRecord verification;
  // On rank 0: per timed exchange, the slowest rank's time in microseconds.
  std::vector<double> samples_us;
  std::optional<model::calibration::SampleSummary> summary_us;  // on rank 0; empty when not timed
  std::optional<TracedRun> traced;  // the per-phase pass, when asked for and verified
};

struct BenchRunSettings {
  MPI_Comm comm = MPI_COMM_WORLD;
  const halo::ExchangeConfig* config = nullptr;
  const halo::ExchangeVerifier* verifier = nullptr;  // null: the config cannot be verified
  std::string unverifiable_reason;
  halo::ExchangeOptions exchange_options;  // its strategy is replaced by the one measured
  int warmup = 0;
  int iterations = 1;
  int verify = 0;
  int traced_exchanges = 0;  // 0: no traced pass
  int trace_kept = 0;        // timelines per rank kept for the trace file
};

// Collective over settings.comm. A wrong exchange is reported on stderr by the rank that saw it
// and recorded; the strategy is then not timed. Exchange failures (deadlines, MPI errors)
// propagate as exceptions.
StrategyResult benchmark_strategy(const BenchRunSettings& settings, halo::Strategy strategy,
                                  halo::DeviceFields& fields, halo::HostField& scratch);

}  // namespace haloflag::bench
