// The traced pass of one strategy: after the timed exchanges, a second Exchange of the same
// strategy with ExchangeOptions::trace runs a few warm-up and then N exchanges. Each exchange's
// phases (the slowest rank's time of each) give the per-phase breakdown, and the last few
// timelines of every rank feed the Chrome trace. Kept apart from the timed exchanges so that the
// clock reads of tracing never touch the reported times.
#pragma once

#include <mpi.h>

#include <optional>
#include <string>
#include <vector>

#include "haloflag/halo/device_fields.hpp"
#include "haloflag/halo/strategy.hpp"
#include "sample_summary.hpp"

namespace haloflag::bench {

struct BenchRunSettings;

// Medians over the traced exchanges of the slowest rank's phase times, in microseconds after
// start(); empty where no rank has that phase (a rank without sends, say).
// Strategy::nccl's steps on its one stream (halo::StreamTimeline): when the host launched or
// enqueued each and saw the stream done (us after start()), and the GPU's span of each step
// (us). Medians of the slowest rank's; empty for the other strategies.
struct StreamStepMedians {
  std::optional<double> pack_launched;
  std::optional<double> transfers_enqueued;
  std::optional<double> unpack_launched;
  std::optional<double> done_seen;
  std::optional<double> gpu_pack;
  std::optional<double> gpu_transfers;
  std::optional<double> gpu_unpack;

  bool any() const { return done_seen.has_value(); }
};

struct PhaseMedians {
  std::optional<double> started;
  std::optional<double> first_send_ready;
  std::optional<double> last_send_ready;
  std::optional<double> last_send_posted;
  std::optional<double> last_receive;
  std::optional<double> last_unpack_done;
  model::calibration::SampleSummary total;  // the traced exchanges' times (tracing included)
  std::optional<double> post_per_send;  // the CPU's cost of one MPI send (ExchangePhases)
  StreamStepMedians stream;
};

struct TracedRun {
  int exchanges = 0;
  PhaseMedians phases_us;  // on rank 0
  // On rank 0: per rank, the JSON (trace_json.hpp's format) of its last kept timelines.
  std::vector<std::string> timelines_json;
};

// Collective over settings.comm; `exchanges` > 0. Exchange failures propagate as exceptions.
TracedRun run_traced_exchanges(const BenchRunSettings& settings, halo::Strategy strategy,
                               halo::DeviceFields& fields, int exchanges, int kept);

}  // namespace haloflag::bench
