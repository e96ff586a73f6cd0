// One strategy's measurement: its own Exchange, verified exchanges, warm-up, the timed
// exchanges (each verified too with --verify-each), and one more verified exchange so that the
// timed configuration is proven correct;
// then, when asked, the traced pass (traced_exchanges.hpp) with a second Exchange.
#pragma once

#include <mpi.h>

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "haloflag/halo/device_fields.hpp"
#include "haloflag/halo/exchange_config.hpp"
#include "haloflag/halo/exchange_options.hpp"
#include "haloflag/halo/exchange_verifier.hpp"
#include "haloflag/halo/host_field.hpp"
#include "drift_summary.hpp"
#include "sample_summary.hpp"
#include "traced_exchanges.hpp"

namespace haloflag::bench {

struct VerificationRecord {
  bool possible = true;            // false: the config cannot be verified
  std::string unavailable_reason;
  int exchanges = 0;               // verified exchanges run
  bool timed_verified = false;     // --verify-each: every timed exchange was among them
  bool passed = true;
  // Summed over the ranks, on rank 0: how many (rank, exchange) pairs were wrong.
  long wrong_exchanges = 0;
  // On rank 0: "rank R, exchange E: what was wrong"; of a verified timed loop the first few of
  // each rank, then how many more there were.
  std::vector<std::string> failures;
};

struct StrategyResult {
  halo::Strategy strategy = halo::Strategy::comb_fused;
  halo::Transport transport = halo::Transport::automatic;  // as asked (--transport)
  std::string name;  // the strategy, and "/transport" when the run compares transports
  // Peers over each transport, counted over every rank (a pair counts once per side), and rank
  // 0's peers as the Exchange described them.
  int node_links = 0;
  int mpi_links = 0;
  // Node sends that went through the receiver's buffer by their shape (halo::NodePlacement),
  // summed over every rank; the peers' paths say so where the fields were mapped.
  int node_sends_through_buffer = 0;
  std::string peers_rank0;
  std::string launch_description;
  // The order of work the Exchange used; for a tuned row (--tuning auto) how it was chosen at
  // set-up, before any round, which every round and the traced pass then use.
  bool tuned = false;
  halo::TuningReport tuning;
  // The size of the MPI pieces the Exchange cut its messages into (0: whole).
  std::int64_t mpi_piece_bytes = 0;
  VerificationRecord verification;
  // On rank 0: per timed exchange, the slowest rank's time in microseconds.
  std::vector<double> samples_us;
  // Resident kernels launched again after leaving the GPU idle during the timed exchanges of
  // every round, the most of any rank (halo::Exchange::relaunches): 0 in a loop.
  std::uint64_t timed_relaunches = 0;
  // Set by summarize_samples after the last round.
  std::optional<model::calibration::SampleSummary> summary_us;  // on rank 0; empty when not timed
  std::optional<DriftSummary> drift;  // on rank 0, with at least 2 drift windows of samples
  std::optional<TracedRun> traced;  // the per-phase pass, when asked for and verified
  // The plain NCCL program beside the nccl strategy (plain_nccl.hpp), not an Exchange.
  bool plain_nccl = false;
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
  bool verify_each = false;     // verify every timed exchange too (needs a verifier)
  std::chrono::nanoseconds idle_gap{0};  // a pause before each timed exchange (--idle-gap)
  double progress_seconds = 0;  // rank 0's progress line on stderr; 0: none
  int traced_exchanges = 0;  // 0: no traced pass
  int trace_kept = 0;        // timelines per rank kept for the trace file
};

// The timed exchanges of round `round` of `rounds` (0-based) when `iterations` are split into
// rounds as evenly as can be, the first rounds taking one more.
// comb_fused's median over `transport` in these results, the baseline of the speed-ups.
std::optional<double> comb_fused_median(const std::vector<StrategyResult>& results,
                                        halo::Transport transport);

// "node", "mpi" or "node+mpi": the transports a result's exchange used; "nccl" for nccl.
std::string transports_used(const StrategyResult& result);

int round_share(int iterations, int rounds, int round);

// Adds a later round's result of a strategy to what the earlier rounds gave: samples in time
// order, verification counts and failures summed, the last traced pass kept.
void add_round(StrategyResult& total, StrategyResult round);

// The summary and drift over every sample (on rank 0; none when nothing was timed).
void summarize_samples(StrategyResult& result, int drift_window);

// Collective over settings.comm. A wrong exchange is reported on stderr by the rank that saw it
// and recorded; the strategy is then not timed. Exchange failures (deadlines, MPI errors)
// propagate as exceptions.
StrategyResult benchmark_strategy(const BenchRunSettings& settings, halo::Strategy strategy,
                                  halo::DeviceFields& fields, halo::HostField& scratch);

// The plain NCCL program (plain_nccl.hpp), collective over settings.comm: verified, warm-up,
// timed and verified again exchanges as for a strategy, no traced pass. Its failures propagate
// as exceptions.
StrategyResult benchmark_plain_nccl(const BenchRunSettings& settings, halo::DeviceFields& fields,
                                    halo::HostField& scratch);

}  // namespace haloflag::bench
