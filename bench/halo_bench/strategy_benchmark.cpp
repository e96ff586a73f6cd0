#include "strategy_benchmark.hpp"

#include <cmath>
#include <cstdio>

#include "gather_strings.hpp"
#include "haloflag/halo/exchange.hpp"
#include "verified_exchange.hpp"

namespace haloflag::bench {

namespace {

int rank_of(MPI_Comm comm) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  return rank;
}

// One verified exchange on every rank; true when all ranks found their ghosts right.
bool verify_everywhere(const BenchRunSettings& settings, halo::Exchange& exchange,
                       halo::DeviceFields& fields, halo::HostField& scratch,
                       VerificationRecord& record) {
  const int rank = rank_of(settings.comm);
  const std::string problem = run_verified_exchange(exchange, fields, scratch, *settings.verifier);
  const std::uint64_t epoch = exchange.epoch();
  ++record.exchanges;
  if (!problem.empty()) {
    std::fprintf(stderr, "[rank %d] halo_bench: %s: exchange %llu: verification failed: %s\n", rank,
                 std::string(halo::to_string(exchange.strategy())).c_str(),
                 static_cast<unsigned long long>(epoch), problem.c_str());
  }
  const std::vector<std::string> problems = gather_strings(settings.comm, problem);
  for (std::size_t r = 0; r < problems.size(); ++r) {
    if (!problems[r].empty()) {
      record.failures.push_back("rank " + std::to_string(r) + ", exchange " +
                                std::to_string(epoch) + ": " + problems[r]);
    }
  }
  int failed = problem.empty() ? 0 : 1;
  MPI_Allreduce(MPI_IN_PLACE, &failed, 1, MPI_INT, MPI_LOR, settings.comm);
  if (failed != 0) record.passed = false;
  return failed == 0;
}

// The slowest rank's time of each exchange, on rank 0. Samples stay local during the loop so
// that no reduction sits between two exchanges; one reduction at the end.
std::vector<double> timed_exchanges(const BenchRunSettings& settings, halo::Exchange& exchange) {
  for (int i = 0; i < settings.warmup; ++i) {
    MPI_Barrier(settings.comm);
    exchange.run();
  }
  std::vector<double> local(static_cast<std::size_t>(settings.iterations));
  for (double& seconds : local) {
    MPI_Barrier(settings.comm);
    const double start = MPI_Wtime();
    exchange.run();
    seconds = MPI_Wtime() - start;
  }
  const bool root = rank_of(settings.comm) == 0;
  std::vector<double> slowest(root ? local.size() : 0);
  MPI_Reduce(local.data(), slowest.data(), settings.iterations, MPI_DOUBLE, MPI_MAX, 0,
             settings.comm);
  // MPI_Wtime resolves nanoseconds at best: microseconds with three decimals say all there is.
  for (double& time : slowest) time = std::round(time * 1e9) / 1e3;
  return slowest;
}

// Verified, warm-up, timed and verified again exchanges with one untraced Exchange.
void measure_strategy(const BenchRunSettings& settings, halo::Strategy strategy,
                      halo::DeviceFields& fields, halo::HostField& scratch, StrategyResult& result) {
  halo::ExchangeOptions options = settings.exchange_options;
  options.strategy = strategy;
  halo::Exchange exchange(*settings.config, fields.view(), options);
  result.launch_description = exchange.launch_description();

  VerificationRecord& verification = result.verification;
  const bool can_verify = settings.verifier != nullptr;
  if (!can_verify) {
    verification.possible = false;
    verification.unavailable_reason = settings.unverifiable_reason;
  }
  for (int i = 0; can_verify && i < settings.verify; ++i) {
    if (!verify_everywhere(settings, exchange, fields, scratch, verification)) return;
  }

  result.samples_us = timed_exchanges(settings, exchange);
  if (!result.samples_us.empty()) result.summary_us = model::calibration::summarize(result.samples_us);

  if (can_verify) verify_everywhere(settings, exchange, fields, scratch, verification);
}

}  // namespace

StrategyResult benchmark_strategy(const BenchRunSettings& settings, halo::Strategy strategy,
                                  halo::DeviceFields& fields, halo::HostField& scratch) {
  StrategyResult result;
  result.strategy = strategy;
  measure_strategy(settings, strategy, fields, scratch, result);
  // The timed Exchange is gone (its resident kernels stopped) before the traced one starts.
  // `passed` is agreed by all ranks, so all of them take the traced pass or none does.
  if (settings.traced_exchanges > 0 && result.verification.passed) {
    result.traced = run_traced_exchanges(settings, strategy, fields, settings.traced_exchanges,
                                         settings.trace_kept);
  }
  return result;
}

}  // namespace haloflag::bench
