#include "strategy_benchmark.hpp"

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "haloflag/bench/gather_strings.hpp"
#include "haloflag/halo/deadline_barrier.hpp"
#include "haloflag/halo/exchange.hpp"
#include "plain_nccl.hpp"
#include "progress_line.hpp"
#include "verified_exchange.hpp"

namespace haloflag::bench {

namespace {

int rank_of(MPI_Comm comm) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  return rank;
}

// One verified exchange on every rank; true when all ranks found their ghosts right.
bool verify_everywhere(const BenchRunSettings& settings, TimedExchange& exchange,
                       halo::DeviceFields& fields, halo::HostField& scratch,
                       VerificationRecord& record) {
  const int rank = rank_of(settings.comm);
  const std::string problem = run_verified_exchange(exchange, fields, scratch, *settings.verifier);
  const std::uint64_t epoch = exchange.epoch();
  ++record.exchanges;
  if (!problem.empty()) {
    std::fprintf(stderr, "[rank %d] halo_bench: %s: exchange %llu: verification failed: %s\n", rank,
                 exchange.name().c_str(),
                 static_cast<unsigned long long>(epoch), problem.c_str());
  }
  const std::vector<std::string> problems = gather_strings(settings.comm, problem);
  for (std::size_t r = 0; r < problems.size(); ++r) {
    if (!problems[r].empty()) {
      ++record.wrong_exchanges;
      record.failures.push_back("rank " + std::to_string(r) + ", exchange " +
                                std::to_string(epoch) + ": " + problems[r]);
    }
  }
  int failed = problem.empty() ? 0 : 1;
  MPI_Allreduce(MPI_IN_PLACE, &failed, 1, MPI_INT, MPI_LOR, settings.comm);
  if (failed != 0) record.passed = false;
  return failed == 0;
}

// What one rank found wrong in its verified timed exchanges.
struct TimedFailures {
  long wrong = 0;
  std::vector<std::string> first;  // "exchange E: what was wrong", the first few
};

// A failing soak could be wrong on every exchange: each rank keeps this many messages.
constexpr std::size_t kFailuresKeptPerRank = 3;
// Separates one rank's kept messages in the gathered text (a message may hold newlines).
constexpr char kRecordSeparator = '\x1e';

void note_timed_failure(const BenchRunSettings& settings, const std::string& name,
                        std::uint64_t epoch, const std::string& problem, TimedFailures& failures) {
  ++failures.wrong;
  if (failures.first.size() >= kFailuresKeptPerRank) return;
  const std::string text = "exchange " + std::to_string(epoch) + ": " + problem;
  std::fprintf(stderr, "[rank %d] halo_bench: %s: timed %s (verification failed)\n",
               rank_of(settings.comm), name.c_str(),
               text.c_str());
  failures.first.push_back(text);
}

// Collective: every rank's failures of the verified timed loop into `record` (the messages on
// rank 0; `passed` and `wrong_exchanges` agreed on by all ranks).
void gather_timed_failures(const BenchRunSettings& settings, const TimedFailures& failures,
                           VerificationRecord& record) {
  std::string text;
  for (const std::string& failure : failures.first) text += failure + kRecordSeparator;
  if (failures.wrong > static_cast<long>(failures.first.size())) {
    text += "and " + std::to_string(failures.wrong - static_cast<long>(failures.first.size())) +
            " more wrong timed exchanges" + kRecordSeparator;
  }
  const std::vector<std::string> texts = gather_strings(settings.comm, text);
  for (std::size_t r = 0; r < texts.size(); ++r) {
    std::size_t begin = 0;
    for (std::size_t end; (end = texts[r].find(kRecordSeparator, begin)) != std::string::npos;
         begin = end + 1) {
      record.failures.push_back("rank " + std::to_string(r) + ", " +
                                texts[r].substr(begin, end - begin));
    }
  }
  long wrong = failures.wrong;
  MPI_Allreduce(MPI_IN_PLACE, &wrong, 1, MPI_LONG, MPI_SUM, settings.comm);
  record.wrong_exchanges += wrong;
  if (wrong != 0) record.passed = false;
}

// The slowest rank's time of each exchange, on rank 0. Samples stay local during the loop so
// that no reduction sits between two exchanges; one reduction at the end. With verify_each,
// each exchange is filled and uploaded before its barrier and downloaded and checked after its
// timed interval, which covers exchange.run() alone as without.
// `relaunches` gains the timed exchanges' relaunches of resident kernels, the most of any rank
// (the warm-up exchanges bring back kernels that left during the verification before).
std::vector<double> timed_exchanges(const BenchRunSettings& settings, TimedExchange& exchange,
                                    halo::DeviceFields& fields, halo::HostField& scratch,
                                    VerificationRecord& record, std::uint64_t& relaunches) {
  for (int i = 0; i < settings.warmup; ++i) {
    halo::barrier_with_deadline(settings.comm, settings.exchange_options.timeout,
                                "the barrier before an exchange");
    exchange.run();
  }
  const std::uint64_t relaunches_before = exchange.relaunches();
  const bool root = rank_of(settings.comm) == 0;
  const bool verify = settings.verify_each && settings.verifier != nullptr;
  ProgressLine progress(exchange.name(),
                        verify ? "timed exchanges (each verified)" : "timed exchanges",
                        settings.iterations,
                        std::chrono::duration<double>(settings.progress_seconds), root);
  TimedFailures failures;
  FieldFill fill = FieldFill::whole;  // once whole, the shell is all an exchange changes
  std::vector<double> local(static_cast<std::size_t>(settings.iterations));
  for (std::size_t i = 0; i < local.size(); ++i) {
    std::uint64_t epoch = 0;
    if (verify) {
      epoch = prepare_verified_exchange(exchange, fields, scratch, *settings.verifier, fill);
      fill = FieldFill::shell;
    }
    if (settings.idle_gap.count() > 0) std::this_thread::sleep_for(settings.idle_gap);
    halo::barrier_with_deadline(settings.comm, settings.exchange_options.timeout,
                                "the barrier before an exchange");
    const double start = MPI_Wtime();
    exchange.run();
    local[i] = MPI_Wtime() - start;
    if (verify) {
      const std::string problem =
          check_verified_exchange(fields, scratch, *settings.verifier, epoch);
      if (!problem.empty()) {
        note_timed_failure(settings, exchange.name(), epoch, problem, failures);
      }
    }
    progress.step_done(static_cast<long>(i + 1));
  }
  if (verify) {
    record.exchanges += settings.iterations;
    record.timed_verified = true;
    gather_timed_failures(settings, failures, record);
  }
  std::uint64_t timed_relaunches = exchange.relaunches() - relaunches_before;
  MPI_Allreduce(MPI_IN_PLACE, &timed_relaunches, 1, MPI_UINT64_T, MPI_MAX, settings.comm);
  relaunches += timed_relaunches;
  std::vector<double> slowest(root ? local.size() : 0);
  MPI_Reduce(local.data(), slowest.data(), settings.iterations, MPI_DOUBLE, MPI_MAX, 0,
             settings.comm);
  // MPI_Wtime resolves nanoseconds at best: microseconds with three decimals say all there is.
  for (double& time : slowest) time = std::round(time * 1e9) / 1e3;
  return slowest;
}

// Verified, warm-up, timed and verified again exchanges of `exchange`.
void verified_and_timed(const BenchRunSettings& settings, TimedExchange& exchange,
                        halo::DeviceFields& fields, halo::HostField& scratch,
                        StrategyResult& result) {
  VerificationRecord& verification = result.verification;
  const bool can_verify = settings.verifier != nullptr;
  if (!can_verify) {
    verification.possible = false;
    verification.unavailable_reason = settings.unverifiable_reason;
  }
  for (int i = 0; can_verify && i < settings.verify; ++i) {
    if (!verify_everywhere(settings, exchange, fields, scratch, verification)) return;
  }

  result.samples_us =
      timed_exchanges(settings, exchange, fields, scratch, verification, result.timed_relaunches);

  if (can_verify) verify_everywhere(settings, exchange, fields, scratch, verification);
}

// Verified, warm-up, timed and verified again exchanges with one untraced Exchange.
void measure_strategy(const BenchRunSettings& settings, halo::Strategy strategy,
                      halo::DeviceFields& fields, halo::HostField& scratch, StrategyResult& result) {
  halo::ExchangeOptions options = settings.exchange_options;
  options.strategy = strategy;
  halo::Exchange exchange(*settings.config, fields.view(), options);
  result.launch_description = exchange.launch_description();
  result.mpi_piece_bytes = exchange.mpi_piece_bytes();
  result.tuning = exchange.tuning();
  // A rank's messages to itself (the self transport) stay on its GPU as the node transport's do,
  // and the model times them alike: they count as node links.
  int links[3] = {0, 0, 0};  // node, mpi, node sends through the buffer
  for (const halo::PeerTransport& peer : exchange.peer_transports()) {
    const bool on_gpus =
        peer.transport == halo::Transport::node || peer.transport == halo::Transport::self;
    ++links[on_gpus ? 0 : 1];
    links[2] += peer.sends_through_buffer;
  }
  MPI_Allreduce(MPI_IN_PLACE, links, 3, MPI_INT, MPI_SUM, settings.comm);
  result.node_links = links[0];
  result.mpi_links = links[1];
  result.node_sends_through_buffer = links[2];
  result.peers_rank0 = halo::describe(exchange.peer_transports());

  TimedHaloExchange timed(exchange);
  verified_and_timed(settings, timed, fields, scratch, result);
}

}  // namespace

std::optional<double> comb_fused_median(const std::vector<StrategyResult>& results,
                                        halo::Transport transport) {
  for (const StrategyResult& result : results) {
    if (result.strategy == halo::Strategy::comb_fused && result.transport == transport &&
        result.summary_us) {
      return result.summary_us->median;
    }
  }
  return std::nullopt;
}

std::string transports_used(const StrategyResult& result) {
  if (result.strategy == halo::Strategy::nccl) return "nccl";
  if (result.node_links > 0 && result.mpi_links > 0) return "node+mpi";
  return result.node_links > 0 ? "node" : "mpi";
}

int round_share(int iterations, int rounds, int round) {
  return iterations / rounds + (round < iterations % rounds ? 1 : 0);
}

void add_round(StrategyResult& total, StrategyResult round) {
  VerificationRecord& verification = total.verification;
  verification.exchanges += round.verification.exchanges;
  verification.timed_verified = verification.timed_verified && round.verification.timed_verified;
  verification.passed = verification.passed && round.verification.passed;
  verification.wrong_exchanges += round.verification.wrong_exchanges;
  for (std::string& failure : round.verification.failures) {
    verification.failures.push_back(std::move(failure));
  }
  total.samples_us.insert(total.samples_us.end(), round.samples_us.begin(),
                          round.samples_us.end());
  total.timed_relaunches += round.timed_relaunches;
  if (round.traced) total.traced = std::move(round.traced);
}

void summarize_samples(StrategyResult& result, int drift_window) {
  if (result.samples_us.empty()) return;
  result.summary_us = model::calibration::summarize(result.samples_us);
  result.drift = summarize_drift(result.samples_us, drift_window);
}

StrategyResult benchmark_strategy(const BenchRunSettings& settings, halo::Strategy strategy,
                                  halo::DeviceFields& fields, halo::HostField& scratch) {
  StrategyResult result;
  result.strategy = strategy;
  result.transport = settings.exchange_options.transport;
  measure_strategy(settings, strategy, fields, scratch, result);
  // The timed Exchange is gone (its resident kernels stopped) before the traced one starts.
  // `passed` is agreed by all ranks, so all of them take the traced pass or none does.
  if (settings.traced_exchanges > 0 && result.verification.passed) {
    result.traced = run_traced_exchanges(settings, strategy, fields, settings.traced_exchanges,
                                         settings.trace_kept);
  }
  return result;
}

StrategyResult benchmark_plain_nccl(const BenchRunSettings& settings, halo::DeviceFields& fields,
                                    halo::HostField& scratch) {
  StrategyResult result;
  result.strategy = halo::Strategy::nccl;
  result.plain_nccl = true;
  result.name = kPlainNcclName;
  const std::unique_ptr<TimedExchange> program = make_plain_nccl(settings, fields);
  result.launch_description = plain_nccl_description();
  verified_and_timed(settings, *program, fields, scratch, result);
  return result;
}

}  // namespace haloflag::bench
