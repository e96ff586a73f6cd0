// halo_bench: the time of one halo exchange per strategy, on a communication config or on
// Comb-style geometry, with the K-model's lower bound beside it. Run under mpiexec; rank 0
// prints the table and writes the JSON report. Options and output: bench/README.md.
//
// Exit status: 0 when every verified exchange was right; 1 when one was wrong or the set-up
// failed; 2 for bad options or a request that cannot run here. A failure inside an exchange
// (a missed deadline, an MPI error) aborts every rank with MPI_Abort, so none is left waiting.
#include <CLI/CLI.hpp>
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "bench_options.hpp"
#include "chrome_trace.hpp"
#include "haloflag/bench/mpi_program.hpp"
#include "haloflag/bench/setup_agreement.hpp"
#include "haloflag/bench/usage_error.hpp"
#include "haloflag/halo/device_fields.hpp"
#include "haloflag/halo/exchange.hpp"
#include "haloflag/halo/exchange_verifier.hpp"
#include "haloflag/halo/gpu_binding.hpp"
#include "haloflag/halo/host_field.hpp"
#include "haloflag/halo/tune.hpp"
#include "haloflag/model/strategy_prediction.hpp"
#include "nccl_comparison.hpp"
#include "plain_nccl.hpp"
#include "report_json.hpp"
#include "report_table.hpp"
#include "run_context.hpp"
#include "strategy_benchmark.hpp"

namespace {

using namespace haloflag;
using namespace haloflag::bench;

constexpr const char* kProgram = "halo_bench";

struct WorldRank {
  int rank = 0;
  int ranks = 1;
};

WorldRank world() {
  WorldRank world;
  MPI_Comm_rank(MPI_COMM_WORLD, &world.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &world.ranks);
  return world;
}

// The parts of the config the fields need; UsageError when the config lacks them.
halo::Index3 field_extent_of(const halo::ExchangeConfig& config, int rank) {
  const halo::RankMessages& messages = config.rank_messages.at(static_cast<std::size_t>(rank));
  if (!messages.field_extent || !config.data) {
    throw UsageError("the config carries no field boxes or no data record for rank " +
                     std::to_string(rank) + ": halo_bench needs them to pack real data");
  }
  return *messages.field_extent;
}

int run_halo_bench(int argc, char** argv) {
  const WorldRank me = world();
  const MPI_Comm comm = MPI_COMM_WORLD;

  CLI::App app{"halo_bench: time of one halo exchange per strategy (median, p10, p90 over "
               "iterations; slowest rank per exchange) with the K-model's lower bound beside it."};
  RunContext context;
  if (const auto exit_code = parse_on_every_rank(app, kProgram, me.rank, [&] {
        context.options = parse_bench_options(app, argc, argv);
      })) {
    return *exit_code;
  }
  const BenchOptions& options = context.options;
  context.command_line.assign(argv, argv + argc);
  // Rank 0 writes the files after the last round: a path it cannot write ends the run now.
  if (const auto exit_code = agree_on_output_paths(
          comm, kProgram, 0, {{"--json", options.json_path}, {"--trace", options.trace_path}})) {
    return *exit_code;
  }

  // Reading inputs: no collective inside, so the ranks can agree on the outcome afterwards.
  std::optional<halo::ExchangeVerifier> verifier;
  halo::Index3 extent{0, 0, 0};
  if (const auto exit_code = run_agreed_setup(comm, kProgram, [&] {
        context.backend = choose_backend(options.backend_name);
        context.workload = resolve_workload(options, me.ranks);
        extent = field_extent_of(context.workload.config, me.rank);
        context.messages = summarize_messages(context.workload.config);
        verifier = halo::ExchangeVerifier::for_config(context.workload.config, me.rank);
        if (!verifier) {
          context.unverifiable_reason =
              "the config has no geometry record: only generated configs can be verified";
          if (options.verify_each) {
            throw UsageError("--verify-each: " + context.unverifiable_reason);
          }
        }
      })) {
    return *exit_code;
  }
  const halo::ExchangeConfig& config = context.workload.config;
  const int vars = config.data->vars;

  // The GPU is chosen before any device memory exists. bind_gpu's collectives run on every
  // rank before it can throw, so this step can be agreed on too.
  std::optional<halo::GpuBinding> binding;
  std::optional<halo::DeviceFields> fields;
  if (const auto exit_code = run_agreed_setup(comm, kProgram, [&] {
        if (!context.backend.emulated()) binding = halo::bind_gpu(comm, options.gpu);
        fields.emplace(context.backend.backend, extent, vars, config.data->element_bytes);
      })) {
    return *exit_code;
  }
  context.machine = collect_machine_info(comm, binding ? &*binding : nullptr);
  context.gpu_sharing = detect_gpu_sharing(comm, binding ? &*binding : nullptr);
  // The parameter file may depend on the GPU and the MPI library, known only now.
  if (const auto exit_code = run_agreed_setup(comm, kProgram, [&] {
        const std::string gpu_name =
            context.machine.gpus.empty() ? "" : context.machine.gpus.front().name;
        const ParamsChoice params =
            choose_params(options.params_path, gpu_name, distinct_gpus(context.machine),
                          context.machine.run.mpi_library);
        context.model = estimate_exchange(config, params);
        const bool node_possible =
            std::any_of(options.transports.begin(), options.transports.end(),
                        [](halo::Transport t) { return t != halo::Transport::mpi; });
        if (node_possible) {
          context.node_model = estimate_exchange(config, params, model::TransportChoice::node);
        }
      })) {
    return *exit_code;
  }
  context.unmodelled_model = context.model;
  context.unmodelled_model.bound_seconds.reset();
  context.unmodelled_model.unavailable_reason = model::unmodelled_reason(halo::Strategy::nccl);
  std::vector<halo::Strategy> strategies;
  for (const halo::Strategy strategy : options.strategies) {
    std::string why = why_not_here(strategy, context.backend.backend, context.gpu_sharing);
    if (why.empty()) {
      strategies.push_back(strategy);
    } else {
      context.not_run.emplace_back(strategy, std::move(why));
    }
  }
  if (!context.gpu_sharing.kernels_side_by_side()) {
    context.left_out = needing_side_by_side(strategies);
    std::erase_if(strategies, [&](halo::Strategy s) {
      return std::find(context.left_out.begin(), context.left_out.end(), s) !=
             context.left_out.end();
    });
  }
  if (strategies.empty()) {
    if (me.rank == 0) {
      print_run_heading(std::cout, context);
      std::cerr << kProgram << ": every strategy asked for was left out (see the heading)\n";
    }
    return 1;
  }

  BenchRunSettings settings;
  settings.comm = comm;
  settings.config = &config;
  settings.verifier = verifier ? &*verifier : nullptr;
  settings.unverifiable_reason = context.unverifiable_reason;
  settings.exchange_options.backend = context.backend.backend;
  settings.exchange_options.comm = comm;
  settings.exchange_options.timeout = std::chrono::duration_cast<std::chrono::nanoseconds>(
      std::chrono::duration<double>(options.timeout_seconds));
  if (options.idle_exit == "never") {
    settings.exchange_options.idle_exit = halo::kIdleExitNever;
  } else if (options.idle_exit != "default") {
    settings.exchange_options.idle_exit = std::chrono::duration_cast<std::chrono::nanoseconds>(
        std::chrono::duration<double, std::micro>(std::stod(options.idle_exit)));
  }
  settings.idle_gap = std::chrono::duration_cast<std::chrono::nanoseconds>(
      std::chrono::duration<double, std::micro>(options.idle_gap_us));
  settings.exchange_options.advanced = options.advanced;
  settings.exchange_options.advanced.poll_backoff = std::chrono::nanoseconds(options.poll_backoff_ns);
  settings.warmup = options.warmup;
  settings.iterations = options.iterations;
  settings.verify = options.verify;
  settings.verify_each = options.verify_each;
  settings.progress_seconds = options.progress_seconds;
  settings.traced_exchanges = options.trace_exchanges;
  settings.trace_kept = std::min(options.trace_kept, options.trace_exchanges);

  // The verifier's field of doubles; fields of other element sizes are checked through their
  // own host mirror (DeviceFields::check_encoded), so then it needs no room.
  const bool doubles = config.data->element_bytes == static_cast<int>(sizeof(double));
  halo::HostField scratch(doubles ? extent : halo::Index3{1, 1, 1}, vars);
  // Rounds in rotation: round k of every strategy runs before round k + 1 of any, so a
  // machine's slow phases (which can last seconds) weigh on all strategies alike and the ratios
  // compare like with like.
  const int rounds = options.rounds;
  // Every strategy over every transport asked for, each pair a variant of the rotation; with
  // --tuning auto each flag strategy also tuned.
  struct Variant {
    halo::Strategy strategy;
    halo::Transport transport;
    std::optional<halo::TuningReport> tuning;  // a tuned variant's choice
    std::string name;
    bool plain_nccl = false;  // the plain NCCL program beside nccl (plain_nccl.hpp)
  };
  std::vector<Variant> variants;
  for (halo::Strategy strategy : strategies) {
    // NCCL carries every message itself: one variant, whatever --transport says, and the plain
    // NCCL program beside it in the same rotation.
    if (strategy == halo::Strategy::nccl) {
      variants.push_back({strategy, halo::Transport::automatic, std::nullopt, "nccl"});
      variants.push_back(
          {strategy, halo::Transport::automatic, std::nullopt, kPlainNcclName, true});
      continue;
    }
    for (halo::Transport transport : options.transports) {
      const std::string over = options.transports.size() > 1
                                   ? "/" + std::string(halo::to_string(transport))
                                   : std::string();
      const std::string name(halo::to_string(strategy));
      variants.push_back({strategy, transport, std::nullopt, name + over});
      if (options.tune && halo::uses_flags(strategy)) {
        variants.push_back({strategy, transport, halo::TuningReport{}, name + ":tuned" + over});
      }
    }
  }
  // The tuned variants choose their order of work before anything is timed (halo::tune), so
  // that the heading names it and every round uses it.
  for (Variant& variant : variants) {
    if (!variant.tuning) continue;
    halo::ExchangeOptions tuned = settings.exchange_options;
    tuned.strategy = variant.strategy;
    tuned.transport = variant.transport;
    try {
      variant.tuning = halo::tune(config, fields->view(), tuned).report;
    } catch (const std::exception& error) {
      abort_run(kProgram, me.rank, variant.name + ": tuning: " + error.what());
    }
    context.tuned_orders.emplace_back(variant.name, *variant.tuning);
  }
  if (me.rank == 0) print_run_heading(std::cout, context);

  const halo::WorkOrder fixed_order = halo::work_order_of(settings.exchange_options);
  std::vector<StrategyResult> results(variants.size());
  for (int round = 0; round < rounds; ++round) {
    BenchRunSettings round_settings = settings;
    round_settings.iterations = round_share(options.iterations, rounds, round);
    // One traced pass per strategy, after its last round.
    if (round + 1 < rounds) round_settings.traced_exchanges = 0;
    for (std::size_t i = 0; i < results.size(); ++i) {
      const Variant& variant = variants[i];
      const halo::Strategy strategy = variant.strategy;
      round_settings.exchange_options.transport = variant.transport;
      halo::set_work_order(round_settings.exchange_options,
                           variant.tuning ? variant.tuning->chosen : fixed_order);
      // `passed` is agreed on by all ranks: they all skip the strategy or none does.
      if (round > 0 && !results[i].verification.passed) continue;
      try {
        StrategyResult part =
            variant.plain_nccl ? benchmark_plain_nccl(round_settings, *fields, scratch)
                               : benchmark_strategy(round_settings, strategy, *fields, scratch);
        part.name = variant.name;
        part.tuned = variant.tuning.has_value();
        if (variant.tuning) part.tuning = *variant.tuning;
        if (round == 0) {
          results[i] = std::move(part);
        } else {
          add_round(results[i], std::move(part));
        }
      } catch (const std::exception& error) {
        abort_run(kProgram, me.rank, variant.name + ": " + error.what());
      }
    }
  }
  for (StrategyResult& result : results) summarize_samples(result, options.drift_window);
  if (me.rank == 0) print_table_heading(std::cout);
  for (const StrategyResult& result : results) {
    if (me.rank == 0) {
      print_table_row(std::cout, result, baseline_median(results, result),
                      model_for(context, result), prediction_for(context, result));
      if (result.strategy == halo::Strategy::nccl) {
        print_fastest_over_node(std::cout, result, fastest_over_node(results));
        if (!result.plain_nccl) print_against_plain_nccl(std::cout, result, plain_nccl_of(results));
      }
    }
  }

  bool all_verified = true;
  for (const StrategyResult& result : results) all_verified = all_verified && result.verification.passed;
  if (me.rank != 0) return all_verified ? 0 : 1;

  print_run_footer(std::cout, context, results);
  if (!options.trace_path.empty()) {
    std::vector<StrategyTimelines> traces;
    for (const StrategyResult& result : results) {
      if (result.traced) {
        traces.push_back({result.name, result.traced->timelines_json});
      }
    }
    if (!write_json_output(options.trace_path, chrome_trace(traces), kProgram,
                           "(Chrome trace events: open in Perfetto)")) {
      return 1;
    }
  }
  if (!options.json_path.empty() &&
      !write_json_output(options.json_path, make_report_json(context, results), kProgram)) {
    return 1;
  }
  return all_verified ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  return haloflag::bench::run_mpi_program(argc, argv, kProgram, run_halo_bench);
}
