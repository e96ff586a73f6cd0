#include "traced_exchanges.hpp"

#include <algorithm>
#include <array>
#include <cstdint>

#include "haloflag/bench/gather_strings.hpp"
#include "haloflag/halo/deadline_barrier.hpp"
#include "haloflag/halo/exchange.hpp"
#include "strategy_benchmark.hpp"
#include "timeline_json.hpp"

namespace haloflag::bench {
namespace {

constexpr int kTracedWarmup = 5;
// The six phases, the total and the cost per send, then the seven stream steps.
constexpr int kPhaseCount = 15;
constexpr double kAbsent = -1.0;

double us_or_absent(std::int64_t ns) {
  return ns == halo::kNotRecorded ? kAbsent : static_cast<double>(ns) / 1e3;
}

std::array<double, kPhaseCount> phase_values_us(const halo::ExchangeTimeline& timeline) {
  const halo::ExchangePhases phases = halo::phases_of(timeline);
  const halo::StreamTimeline& stream = timeline.stream;
  const auto us = us_or_absent;
  return {us(phases.started),          us(phases.first_send_ready),
          us(phases.last_send_ready),  us(phases.last_send_posted),
          us(phases.last_receive),     us(phases.last_unpack_done),
          us(phases.total),            us(phases.post_per_send),
          us(stream.pack_launched),    us(stream.transfers_enqueued),
          us(stream.unpack_launched),  us(stream.done_seen),
          us(stream.gpu_pack_ns),      us(stream.gpu_transfers_ns),
          us(stream.gpu_unpack_ns)};
}

std::optional<double> median_of_present(std::vector<double> values) {
  std::erase_if(values, [](double value) { return value == kAbsent; });
  if (values.empty()) return std::nullopt;
  return model::calibration::summarize(values).median;
}

}  // namespace

TracedRun run_traced_exchanges(const BenchRunSettings& settings, halo::Strategy strategy,
                               halo::DeviceFields& fields, int exchanges, int kept) {
  halo::ExchangeOptions options = settings.exchange_options;
  options.strategy = strategy;
  options.trace = true;
  halo::Exchange exchange(*settings.config, fields.view(), options);
  for (int i = 0; i < kTracedWarmup; ++i) {
    halo::barrier_with_deadline(settings.comm, settings.exchange_options.timeout,
                                "the barrier before an exchange");
    exchange.run();
  }

  // Per exchange, this rank's phases; the slowest rank's per phase after one reduction.
  std::vector<double> local(static_cast<std::size_t>(exchanges) * kPhaseCount);
  nlohmann::json kept_timelines = nlohmann::json::array();
  for (int i = 0; i < exchanges; ++i) {
    halo::barrier_with_deadline(settings.comm, settings.exchange_options.timeout,
                                "the barrier before an exchange");
    exchange.run();
    const halo::ExchangeTimeline& timeline = exchange.last_timeline();
    const auto values = phase_values_us(timeline);
    std::copy(values.begin(), values.end(), local.begin() + static_cast<std::ptrdiff_t>(i) * kPhaseCount);
    if (i >= exchanges - kept) kept_timelines.push_back(timeline_json(timeline));
  }

  int rank = 0;
  MPI_Comm_rank(settings.comm, &rank);
  std::vector<double> slowest(rank == 0 ? local.size() : 0);
  MPI_Reduce(local.data(), slowest.data(), static_cast<int>(local.size()), MPI_DOUBLE, MPI_MAX, 0,
             settings.comm);
  TracedRun run;
  run.exchanges = exchanges;
  run.timelines_json = gather_strings(settings.comm, kept_timelines.dump());
  if (rank != 0) return run;

  std::array<std::vector<double>, kPhaseCount> per_phase;
  for (int i = 0; i < exchanges; ++i) {
    for (int p = 0; p < kPhaseCount; ++p) {
      per_phase[static_cast<std::size_t>(p)].push_back(
          slowest[static_cast<std::size_t>(i) * kPhaseCount + static_cast<std::size_t>(p)]);
    }
  }
  run.phases_us.started = median_of_present(per_phase[0]);
  run.phases_us.first_send_ready = median_of_present(per_phase[1]);
  run.phases_us.last_send_ready = median_of_present(per_phase[2]);
  run.phases_us.last_send_posted = median_of_present(per_phase[3]);
  run.phases_us.last_receive = median_of_present(per_phase[4]);
  run.phases_us.last_unpack_done = median_of_present(per_phase[5]);
  run.phases_us.total = model::calibration::summarize(per_phase[6]);
  run.phases_us.post_per_send = median_of_present(per_phase[7]);
  StreamStepMedians& stream = run.phases_us.stream;
  stream.pack_launched = median_of_present(per_phase[8]);
  stream.transfers_enqueued = median_of_present(per_phase[9]);
  stream.unpack_launched = median_of_present(per_phase[10]);
  stream.done_seen = median_of_present(per_phase[11]);
  stream.gpu_pack = median_of_present(per_phase[12]);
  stream.gpu_transfers = median_of_present(per_phase[13]);
  stream.gpu_unpack = median_of_present(per_phase[14]);
  return run;
}

}  // namespace haloflag::bench
