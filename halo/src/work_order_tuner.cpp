#include "work_order_tuner.hpp"

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <span>
#include <vector>

#include "haloflag/halo/exchange.hpp"

namespace haloflag::halo::detail {

namespace {

constexpr int kWarmUpExchanges = 3;
constexpr int kTimedExchanges = 15;

// Whether any rank of comm has a peer over MPI: only then does the order of receives matter.
// The first candidate is always the given order, set up before this is asked.
bool any_mpi_peer(const Exchange& exchange, MPI_Comm comm) {
  int mine = 0;
  for (const PeerTransport& peer : exchange.peer_transports()) {
    if (peer.transport == Transport::mpi) mine = 1;
  }
  int any = 0;
  MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_MAX, comm);
  return any != 0;
}

// The orders that apply, the given one first.
std::vector<WorkOrder> candidates(const ExchangeOptions& options, bool mpi_peers) {
  const bool stream_kernels = options.strategy == Strategy::stream_notify ||
                              options.strategy == Strategy::resident;
  const WorkOrder given = work_order_of(options);
  std::vector<bool> receives = {given.long_receives_on_arrival};
  if (mpi_peers) receives = {false, true};
  std::vector<bool> sends = {given.long_sends_in_turn};
  if (stream_kernels) sends = {false, true};
  std::vector<int> blocks = {given.long_receive_blocks};
  if (runs_helper_blocks(options)) blocks = {1, 3};
  std::vector<WorkOrder> orders = {given};
  for (const bool r : receives) {
    for (const bool s : sends) {
      for (const int b : blocks) {
        const WorkOrder order{r, s, b};
        if (std::find(orders.begin(), orders.end(), order) == orders.end()) {
          orders.push_back(order);
        }
      }
    }
  }
  return orders;
}

// The slowest rank's median of kTimedExchanges exchanges, after kWarmUpExchanges.
double time_exchanges(Exchange& exchange, MPI_Comm comm) {
  for (int i = 0; i < kWarmUpExchanges; ++i) exchange.run();
  std::vector<double> times;
  for (int i = 0; i < kTimedExchanges; ++i) {
    const auto begin = std::chrono::steady_clock::now();
    exchange.run();
    times.push_back(
        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - begin)
            .count());
  }
  std::nth_element(times.begin(), times.begin() + times.size() / 2, times.end());
  double median = times[times.size() / 2];
  double slowest = 0.0;
  MPI_Allreduce(&median, &slowest, 1, MPI_DOUBLE, MPI_MAX, comm);
  return slowest;
}

}  // namespace

TuningReport fixed_tuning(const ExchangeOptions& options) {
  TuningReport report;
  report.chosen = work_order_of(options);
  report.reason = "fixed: " + report.chosen.describe();
  return report;
}

TuningReport tune_work_order(const ExchangeConfig& config, const kernels::FieldSet& fields,
                             ExchangeOptions& options) {
  TuningReport report = fixed_tuning(options);
  if (!uses_flags(options.strategy) || options.strategy == Strategy::embedded) {
    report.reason = "auto: nothing to tune for " + std::string(to_string(options.strategy)) +
                    " (" + report.chosen.describe() + ")";
    return report;
  }
  ExchangeOptions trial = options;
  trial.tuning = Tuning::fixed;
  // The given order first: it must set up (its failure is the caller's error), and it tells
  // whether any peer is over MPI, which decides the candidates.
  std::vector<WorkOrder> orders;
  {
    Exchange given(config, fields, trial);
    orders = candidates(options, any_mpi_peer(given, options.comm));
    report.candidates.push_back({orders.front(), time_exchanges(given, options.comm), ""});
  }
  for (const WorkOrder& order : std::span(orders).subspan(1)) {
    TunedCandidate candidate;
    candidate.order = order;
    set_work_order(trial, order);
    std::unique_ptr<Exchange> exchange;
    try {
      exchange = std::make_unique<Exchange>(config, fields, trial);
    } catch (const ExchangeError& error) {
      // Every rank fails set-up together (Exchange's constructor agrees), so all skip it.
      // Failures while exchanging are not caught: they are the caller's errors.
      candidate.skipped_because = error.what();
    }
    if (exchange) candidate.median_us = time_exchanges(*exchange, options.comm);
    report.candidates.push_back(candidate);
  }
  if (report.candidates.size() == 1) {
    report.reason = "auto: nothing to tune for " + std::string(to_string(options.strategy)) +
                    " on these peers (" + report.chosen.describe() + ")";
    return report;
  }
  const TunedCandidate* best = &report.candidates.front();
  for (const TunedCandidate& candidate : report.candidates) {
    if (candidate.median_us >= 0.0 && candidate.median_us < best->median_us) best = &candidate;
  }
  report.tuned = true;
  report.chosen = best->order;
  report.exchanges_per_candidate = kTimedExchanges;
  set_work_order(options, report.chosen);
  return report;
}

}  // namespace haloflag::halo::detail
