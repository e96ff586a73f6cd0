#include "tuning/work_order_tuner.hpp"

#include <mpi.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <initializer_list>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "haloflag/halo/errors.hpp"
#include "haloflag/halo/exchange.hpp"

namespace haloflag::halo::detail {

namespace {

constexpr int kWarmUpExchanges = 3;
constexpr int kTimedExchanges = 20;

// The piece grid's piece sizes and block sizes tried beside the given ones.
constexpr std::array<std::array<int, 2>, 4> kNodeShapes = {
    {{2048, 256}, {4096, 256}, {8192, 512}, {16384, 512}}};

// MPI piece sizes tried beside the given one (0: whole).
constexpr std::array<std::int64_t, 4> kMpiPieceBytes = {0, 8192, 16384, 65536};

// Whether any rank of comm has a peer over one of `transports`. The first candidate is always
// the given order, set up before this is asked.
bool any_peer_over(const Exchange& exchange, std::initializer_list<Transport> transports,
                   MPI_Comm comm) {
  int mine = 0;
  for (const PeerTransport& peer : exchange.peer_transports()) {
    if (std::find(transports.begin(), transports.end(), peer.transport) != transports.end()) {
      mine = 1;
    }
  }
  int any = 0;
  MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_MAX, comm);
  return any != 0;
}

// The orders that apply, the given one first: the orders of the MPI messages and the piece sizes
// where some peer is over MPI, and the piece grid's shapes where it moves some messages (node or
// self peers; the given MPI order with each: the product of both would double the tuning time
// for little).
std::vector<WorkOrder> candidates(const ExchangeOptions& options, bool mpi_peers,
                                  bool piece_grid) {
  const bool stream_kernels = options.strategy == Strategy::stream_notify ||
                              options.strategy == Strategy::resident;
  WorkOrder given = work_order_of(options);
  if (piece_grid) {
    given.node_piece_bytes = options.advanced.launch.node_piece_bytes;
    given.node_threads = options.advanced.launch.node_threads;
  }
  if (mpi_peers) given.mpi_piece_bytes = options.advanced.mpi_piece_bytes;
  std::vector<bool> receives = {given.long_receives_on_arrival};
  if (mpi_peers) receives = {false, true};
  std::vector<bool> sends = {given.long_sends_in_turn};
  if (stream_kernels && mpi_peers) sends = {false, true};
  std::vector<int> blocks = {given.long_receive_blocks};
  if (runs_helper_blocks(options) && mpi_peers) blocks = {1, 3};
  std::vector<WorkOrder> orders = {given};
  const auto add = [&](const WorkOrder& order) {
    if (std::find(orders.begin(), orders.end(), order) == orders.end()) orders.push_back(order);
  };
  for (const bool r : receives) {
    for (const bool s : sends) {
      for (const int b : blocks) {
        add({r, s, b, given.node_piece_bytes, given.node_threads, given.mpi_piece_bytes});
      }
    }
  }
  // The piece sizes with the given order (the product would double the tuning time for little).
  if (mpi_peers) {
    for (const std::int64_t bytes : kMpiPieceBytes) {
      WorkOrder order = given;
      order.mpi_piece_bytes = bytes;
      add(order);
    }
  }
  // The stacked grid's blocks are its own (LaunchSettings::stacked_threads).
  if (piece_grid && options.strategy != Strategy::stacked_notify) {
    for (const auto& [piece, threads] : kNodeShapes) {
      WorkOrder order = given;
      order.node_piece_bytes = piece;
      order.node_threads = threads;
      add(order);
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

void refuse_automatic_tuning(const ExchangeOptions& options) {
  if (options.tuning != Tuning::automatic) return;
  int rank = -1;
  MPI_Comm_rank(options.comm, &rank);
  throw ConfigError("rank " + std::to_string(rank) +
                    ": ExchangeOptions::tuning is automatic, but the Exchange constructor no "
                    "longer tunes: call haloflag::halo::tune(config, fields, options) and build "
                    "the Exchange with its options, or haloflag::halo::Exchange::tuned(config, "
                    "fields, options); tuning = fixed runs the options as given");
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
    orders = candidates(options, any_peer_over(given, {Transport::mpi}, options.comm),
                        any_peer_over(given, {Transport::node, Transport::self}, options.comm));
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
  // The given order is timed again last, so that a slow phase of the machine early or late in
  // the tuning does not fall on it alone; its better time stands.
  {
    set_work_order(trial, orders.front());
    Exchange given(config, fields, trial);
    TunedCandidate& first = report.candidates.front();
    first.median_us = std::min(first.median_us, time_exchanges(given, options.comm));
  }
  const TunedCandidate* best = &report.candidates.front();
  for (const TunedCandidate& candidate : report.candidates) {
    if (candidate.median_us >= 0.0 && candidate.median_us < best->median_us) best = &candidate;
  }
  if (best->median_us >= report.candidates.front().median_us * (1.0 - kTuningMargin)) {
    best = &report.candidates.front();
  }
  report.tuned = true;
  report.chosen = best->order;
  report.exchanges_per_candidate = kTimedExchanges;
  set_work_order(options, report.chosen);
  return report;
}

}  // namespace haloflag::halo::detail
