#include "report_table.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <ostream>
#include <string>

#include "haloflag/bench/build_info.hpp"
#include "haloflag/bench/display_path.hpp"
#include "haloflag/halo/nccl_library.hpp"
#include "haloflag/model/prediction_report.hpp"
#include "haloflag/model/strategy_prediction.hpp"

namespace haloflag::bench {

namespace {

// Wide enough for "stacked_notify/auto".
constexpr int kNameWidth = 27;  // "stacked_notify:tuned/auto" and a gap


std::string fixed(double value, int decimals) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
}

std::string padded(const std::string& text, std::size_t width, bool left = false) {
  if (text.size() >= width) return text;
  const std::string fill(width - text.size(), ' ');
  return left ? text + fill : fill + text;
}

void line(std::ostream& out, const std::string& label, const std::string& text) {
  out << padded(label, 10, true) << "  " << text << '\n';
}

// "2 on node-a" or "4 on node-a (2), node-b (2)".
std::string describe_ranks(const MachineInfo& machine) {
  std::map<std::string, int> per_host;
  for (const std::string& host : machine.run.hosts) ++per_host[host];
  std::string text = std::to_string(machine.run.ranks) + " on ";
  bool first = true;
  for (const auto& [host, count] : per_host) {
    text += (first ? "" : ", ") + host;
    if (per_host.size() > 1) text += " (" + std::to_string(count) + ")";
    first = false;
  }
  return text;
}

std::string describe_workload(const Workload& workload) {
  std::string source;
  if (!workload.config_file.empty()) {
    source = display_path(workload.config_file);
  } else {
    source = "geometry --size " + halo::format_triple(workload.geometry->global_size);
  }
  if (workload.is_default) source += " (default for this rank count)";
  return source + ": " + workload.description;
}

std::string describe_model(const ModelEstimate& model) {
  std::string text;
  if (model.bound_seconds) {
    text = "lower bound " + fixed(*model.bound_seconds * 1e6, 2) + " us (critical rank " +
           std::to_string(model.critical_rank) + "), mapping " + model.mapping + "\n";
  } else {
    text = "no prediction: " + model.unavailable_reason + "\n";
  }
  text += padded("", 12) + "parameters " + display_path(model.params_file) + ": " +
          model.provenance.machine + "\n" + padded("", 12) + "(" + model.params_choice.how + ")";
  if (model.paper_machine) {
    text += "\n" + padded("", 12) +
            "(the paper's machine, not this one: calibrate with haloflag_calibrate_* for this one)";
  }
  return text;
}

std::string phase_cell(const std::optional<double>& value) {
  return padded(value ? fixed(*value, 1) : "-", 11);
}

// nccl's steps on its one stream: the host's (when each went on the stream, when the stream was
// seen done) beside the GPU's span of each, so that the time outside the GPU's work shows.
void print_stream_steps(std::ostream& out, const std::vector<StrategyResult>& results) {
  const auto has_steps = [](const StrategyResult& r) {
    return r.traced && r.traced->phases_us.stream.any();
  };
  if (std::none_of(results.begin(), results.end(), has_steps)) return;
  out << "\nstream steps (the same traced pass; host: us after start(), GPU: us of each step "
         "between events on the stream; slowest rank, median):\n"
      << padded("strategy", kNameWidth, true) << padded("pack", 11) << padded("group", 11)
      << padded("unpack", 11) << padded("done seen", 11) << padded("GPU pack", 11)
      << padded("GPU xfers", 11) << padded("GPU unpack", 11) << padded("GPU busy", 11)
      << padded("not on GPU", 11) << '\n';
  for (const StrategyResult& result : results) {
    if (!has_steps(result)) continue;
    const StreamStepMedians& steps = result.traced->phases_us.stream;
    std::optional<double> busy;
    if (steps.gpu_pack && steps.gpu_transfers && steps.gpu_unpack) {
      busy = *steps.gpu_pack + *steps.gpu_transfers + *steps.gpu_unpack;
    }
    std::optional<double> outside;
    if (busy && steps.done_seen) outside = *steps.done_seen - *busy;
    out << padded(result.name, kNameWidth, true) << phase_cell(steps.pack_launched)
        << phase_cell(steps.transfers_enqueued) << phase_cell(steps.unpack_launched)
        << phase_cell(steps.done_seen) << phase_cell(steps.gpu_pack)
        << phase_cell(steps.gpu_transfers) << phase_cell(steps.gpu_unpack) << phase_cell(busy)
        << phase_cell(outside) << '\n';
  }
  out << "pack, group, unpack: the host returned from the pack launch, ncclGroupEnd and the "
         "unpack launch; done seen: the poll that found the stream idle; GPU pack: from an "
         "event recorded before the pack to one after it, GPU xfers: to one after the group "
         "(NCCL's kernel), GPU unpack: to one after the unpack; not on GPU: done seen - GPU "
         "busy, the host's time before the stream's first event ran and after its last "
         "(launch latency, the poll); the traced pass's events add host work between the "
         "steps that the timed exchanges do not have\n";
}

// Where the time of an exchange goes: the traced pass's phase medians.
void print_phase_table(std::ostream& out, const std::vector<StrategyResult>& results) {
  bool any = false;
  for (const StrategyResult& result : results) any = any || result.traced.has_value();
  if (!any) return;
  out << "\nphases (a separate traced pass; us after start(), slowest rank, median over the traced "
         "exchanges):\n"
      << padded("strategy", kNameWidth, true) << padded("started", 11) << padded("1st ready", 11) << padded("last ready", 11)
      << padded("last sent", 11) << padded("last recv", 11) << padded("last unpack", 12)
      << padded("traced total", 13) << padded("post/send", 10) << padded("exchanges", 10) << '\n';
  for (const StrategyResult& result : results) {
    if (!result.traced) continue;
    const PhaseMedians& phases = result.traced->phases_us;
    out << padded(result.name, kNameWidth, true)
        << phase_cell(phases.started) << phase_cell(phases.first_send_ready)
        << phase_cell(phases.last_send_ready)
        << phase_cell(phases.last_send_posted) << phase_cell(phases.last_receive)
        << padded(phases.last_unpack_done ? fixed(*phases.last_unpack_done, 1) : "-", 12)
        << padded(fixed(phases.total.median, 1), 13)
        << padded(phases.post_per_send ? fixed(*phases.post_per_send, 2) : "-", 10)
        << padded(std::to_string(result.traced->exchanges), 10) << '\n';
  }
  out << "started: start() returned (receives posted, kernels launched or armed); ready: "
         "send_ready seen by the CPU (bulk strategies: pack kernel done; node transport: "
         "pieces_done seen, for every node message at once); sent: MPI send started; recv: "
         "receive complete; unpack: unpack_done seen (bulk: unpack kernel done); post/send: the CPU's "
         "cost of one MPI send (a piece with MPI pieces), from when it could be posted to when "
         "it was, the slowest rank's mean\n";
  const bool any_nccl = std::any_of(results.begin(), results.end(), [](const StrategyResult& r) {
    return r.traced && r.strategy == halo::Strategy::nccl;
  });
  if (any_nccl) {
    out << "nccl: pack, transfers and unpack run back to back on one stream, so no pack's end "
           "is seen (ready: -); sent: its NCCL group is on the stream; recv and unpack: the "
           "stream seen done; its steps are in the table below\n";
  }
  print_stream_steps(out, results);
}

// Whether the time per exchange stayed put over a long run (DriftSummary).
void print_drift_table(std::ostream& out, const std::vector<StrategyResult>& results) {
  bool any = false;
  for (const StrategyResult& result : results) any = any || result.drift.has_value();
  if (!any) return;
  int window = 0;
  for (const StrategyResult& result : results) {
    if (result.drift) window = result.drift->window;
  }
  out << "\ndrift (median of the first " << window << " and of the last " << window
      << " timed exchanges):\n"
      << padded("strategy", kNameWidth, true) << padded("exchanges", 10) << padded("first us", 11)
      << padded("last us", 11) << padded("last/first", 12) << '\n';
  for (const StrategyResult& result : results) {
    if (!result.drift) continue;
    const DriftSummary& drift = *result.drift;
    out << padded(result.name, kNameWidth, true)
        << padded(std::to_string(drift.exchanges), 10) << padded(fixed(drift.first_median_us, 1), 11)
        << padded(fixed(drift.last_median_us, 1), 11)
        << padded(fixed(drift.last_over_first, 3), 12) << '\n';
  }
}

}  // namespace

void print_run_heading(std::ostream& out, const RunContext& context) {
  const BenchOptions& options = context.options;
  out << "halo_bench (haloflag " << build_info().haloflag_version
      << "): time of one halo exchange per strategy\n";
  line(out, "backend", context.backend.describe());
  if (!context.machine.cpu_model.empty()) line(out, "cpu", context.machine.cpu_model);
  for (const RankGpu& gpu : context.machine.gpus) line(out, "gpu", gpu.description);
  if (!context.backend.emulated()) {
    const GpuSharing& sharing = context.gpu_sharing;
    std::string text = sharing.describe();
    if (sharing.shared()) text += ": not one-GPU-per-rank times";
    line(out, "GPU sharing", text);
  }
  if (!context.left_out.empty()) {
    std::string names;
    for (halo::Strategy strategy : context.left_out) {
      names += (names.empty() ? "" : ", ") + std::string(halo::to_string(strategy));
    }
    line(out, "left out",
         names + ": their kernels wait on their peers' kernels, which on a GPU shared without "
                 "MPS run in turns, not side by side (scripts/run.sh starts MPS where "
                 "nvidia-cuda-mps-control is installed)");
  }
  for (const auto& [strategy, why] : context.not_run) {
    line(out, "not run", std::string(halo::to_string(strategy)) + ": " + why);
  }
  // Where the library is not built, "not run" has said so when nccl was asked for.
  if (halo::nccl_library().built) line(out, "NCCL", describe_nccl_library());
  line(out, "ranks", describe_ranks(context.machine));
  line(out, "config", describe_workload(context.workload));
  line(out, "messages", context.messages.describe());
  line(out, "MPI", context.machine.run.mpi_library);
  line(out, "MPI env", model::calibration::describe_mpi_settings(context.machine.run.mpi_settings));
  line(out, "timing",
       std::to_string(options.iterations) + " timed exchanges per strategy in " +
           std::to_string(options.rounds) +
           " rounds over the strategies in rotation, each round after " +
           std::to_string(options.warmup) +
           " warm-up exchanges; each exchange after " +
           (options.idle_gap_us > 0 ? "a pause of " + fixed(options.idle_gap_us, 0) + " us and "
                                    : std::string()) +
           "a barrier; its time is the slowest rank's");
  line(out, "receives",
       options.advanced.long_receives_on_arrival
           ? "flag strategies post the long ones as they arrive, after every send (between "
             "sends with --long-sends in-turn) (--long-receives on-arrival); the others at "
             "start()"
           : "every one posted at start(), before any send (--long-receives posted-first)");
  line(out, "transport",
       "--transport " + options.transport_argument + " --node-size " +
           std::to_string(options.node_size) + " --node-mapping " +
           std::string(halo::to_string(options.advanced.node_mapping)) + " --node-placement " +
           std::string(halo::to_string(options.advanced.node_placement)) +
           " --node-buffered-from-bytes " +
           std::to_string(options.advanced.node_buffered_from_bytes) +
           " --node-lines-up-to-bytes " + std::to_string(options.advanced.node_lines_up_to_bytes) +
           ": node carries each peer on the rank's node GPU to GPU (device memory through IPC, "
           "or pinned host memory both map), mpi the others through pinned buffers and MPI; "
           "the table's transport column says what each exchange used");
  line(out, "long sends",
       options.advanced.long_sends_in_turn
           ? "flag strategies pack them one after another, by their blocks together, and test "
             "receives between sends (--long-sends in-turn)"
           : "stream_notify and resident pack each by its own block, all at once; "
             "stacked_notify in turn (--long-sends together)");
  if (options.tune) {
    line(out, "tuning",
         "--tuning auto: each flag strategy also as <strategy>:tuned, its order of work (receives, "
         "long sends, blocks per long receive) timed at set-up on this machine and transport, "
         "the fastest kept:");
    for (const auto& [name, report] : context.tuned_orders) {
      line(out, "", name + ": " + report.summary());
    }
  }
  if (context.unverifiable_reason.empty()) {
    line(out, "checks",
         std::to_string(options.verify) + " verified exchanges before timing, " +
             (options.verify_each ? "every timed one (outside its timed interval), " : "") +
             "and 1 after (every ghost cell compared)");
  } else {
    line(out, "checks", "none: " + context.unverifiable_reason);
  }
  line(out, "model", describe_model(context.model));
  const model::MachineParams* params = context.model.params.get();
  if (params != nullptr && params->schedule) {
    line(out, "prediction",
         "per strategy from the same file: a fixed cost per exchange " +
             std::string(params->schedule->fixed.empty() ? "composed from launch and flag terms"
                                                         : "measured on tiny messages") +
             ", then the strategy's phases; " + std::to_string(context.gpu_sharing.ranks_per_gpu) +
             " rank(s) per GPU share its bandwidth (docs/model.md)");
  } else {
    line(out, "prediction",
         "none: the parameter file has no schedule terms; scripts/calibrate_machine.sh measures "
         "this machine's and caches them for the next run");
  }
  if (context.node_model) {
    line(out, "model, node", describe_model(*context.node_model) +
                                 " (beside the exchanges that used the node transport)");
  }
  out << '\n';
}

const ModelEstimate& model_for(const RunContext& context, const StrategyResult& result) {
  if (!model::unmodelled_reason(result.strategy).empty()) return context.unmodelled_model;
  return result.node_links > 0 && context.node_model ? *context.node_model : context.model;
}

RowPrediction prediction_for(const RunContext& context, const StrategyResult& result) {
  // The pieces the row's Exchange cut its messages into.
  return predict_row(context.model, context.workload.config, result.strategy, result.mpi_links,
                     result.node_links, context.gpu_sharing.ranks_per_gpu, result.mpi_piece_bytes);
}

void print_table_heading(std::ostream& out) {
  out << padded("strategy", kNameWidth, true) << padded("transport", 10, true)
      << padded("median us", 11) << padded("p10", 10)
      << padded("p90", 10) << padded("min", 10) << padded("mean", 10)
      << padded("vs comb_fused", 15) << padded("model us", 10) << padded("meas/model", 12)
      << padded("predicted us", 14) << padded("pred/meas", 11) << "  verified\n";
  out.flush();
}

void print_table_row(std::ostream& out, const StrategyResult& result,
                     std::optional<double> baseline_median_us, const ModelEstimate& model,
                     const RowPrediction& predicted) {
  out << padded(result.name, kNameWidth, true) << padded(transports_used(result), 10, true);
  if (result.summary_us) {
    const model::calibration::SampleSummary& times = *result.summary_us;
    out << padded(fixed(times.median, 1), 11) << padded(fixed(times.p10, 1), 10)
        << padded(fixed(times.p90, 1), 10) << padded(fixed(times.min, 1), 10)
        << padded(fixed(times.mean, 1), 10);
    // Speed-up: how many times faster than comb_fused in this run (> 1 is faster).
    out << padded(baseline_median_us ? fixed(*baseline_median_us / times.median, 2) + "x" : "-", 15);
    if (model.bound_seconds) {
      const double bound_us = *model.bound_seconds * 1e6;
      out << padded(fixed(bound_us, 1), 10) << padded(fixed(times.median / bound_us, 2) + "x", 12);
    } else {
      out << padded("-", 10) << padded("-", 12);
    }
    if (predicted.prediction) {
      const double predicted_us = predicted.prediction->seconds * 1e6;
      out << padded(fixed(predicted_us, 1), 14)
          << padded(fixed(predicted_us / times.median, 2) + "x", 11);
    } else {
      out << padded("-", 14) << padded("-", 11);
    }
  } else {
    out << padded("not timed", 11) << padded("", 10 * 4 + 15 + 10 + 12 + 14 + 11);
  }
  const VerificationRecord& check = result.verification;
  if (!check.possible) {
    out << "  not possible";
  } else {
    out << "  " << (check.passed ? "ok" : "FAILED") << " (" << check.exchanges << ")";
  }
  out << '\n';
  out.flush();
}

void print_fastest_over_node(std::ostream& out, const StrategyResult& nccl,
                             const std::optional<FastestOverNode>& fastest) {
  if (!nccl.summary_us) return;
  out << "  " << nccl.name << " against haloflag's fastest over node: ";
  if (!fastest) {
    out << "none ran over node alone\n";
    return;
  }
  out << fastest->name << " " << fixed(fastest->median_us, 1) << " us / "
      << fixed(nccl.summary_us->median, 1)
      << " us = " << fixed(fastest->median_us / nccl.summary_us->median, 2) << "x\n";
  out.flush();
}

void print_against_plain_nccl(std::ostream& out, const StrategyResult& nccl,
                              const StrategyResult* plain) {
  if (!nccl.summary_us) return;
  out << "  " << nccl.name << " against the plain NCCL program of this run: ";
  if (plain == nullptr || !plain->summary_us) {
    out << "not timed\n";
    return;
  }
  const double mine = nccl.summary_us->median;
  const double theirs = plain->summary_us->median;
  out << plain->name << " " << fixed(theirs, 1) << " us / " << fixed(mine, 1)
      << " us = " << fixed(theirs / mine, 2) << "x (the Exchange adds " << fixed(mine - theirs, 1)
      << " us)\n";
  out.flush();
}

void print_run_footer(std::ostream& out, const RunContext& context,
                      const std::vector<StrategyResult>& results) {
  out << '\n';
  out << "vs comb_fused: comb_fused's median over the same --transport (nccl: over node where it "
         "ran so) / this median (> 1: faster); meas/model: median / model lower bound; "
         "predicted: the strategy's predicted time, pred/meas: predicted / median; transport: "
         "what the exchange used\n";
  bool any_predicted = false;
  for (const StrategyResult& result : results) {
    const RowPrediction predicted = prediction_for(context, result);
    if (!predicted.prediction) continue;
    if (!any_predicted) out << "predicted phases (critical rank, us):\n";
    any_predicted = true;
    out << "  " << padded(result.name, kNameWidth, true)
        << model::describe_phases(*predicted.prediction) << '\n';
  }
  // Resident kernels leave the GPU when idle; a timed loop should never bring them back.
  for (const StrategyResult& result : results) {
    if (result.strategy != halo::Strategy::resident || result.samples_us.empty()) continue;
    out << result.name << ": resident kernels launched again in the timed exchanges: "
        << result.timed_relaunches << '\n';
  }
  // comb_fused's peers, and each other way a row reached them (MPI pieces, NCCL), once.
  std::vector<std::string> peers_shown;
  for (const StrategyResult& result : results) {
    if (result.strategy != halo::Strategy::comb_fused) continue;
    out << "peers of rank 0 (" << result.name << "): " << result.peers_rank0 << '\n';
    peers_shown.push_back(result.peers_rank0);
  }
  for (const StrategyResult& result : results) {
    if (peers_shown.empty() ||
        std::find(peers_shown.begin(), peers_shown.end(), result.peers_rank0) != peers_shown.end()) {
      continue;
    }
    out << "peers of rank 0 (" << result.name << "): " << result.peers_rank0 << '\n';
    peers_shown.push_back(result.peers_rank0);
  }
  for (const StrategyResult& result : results) {
    const VerificationRecord& check = result.verification;
    if (!check.possible) {
      out << result.name << ": not verified: " << check.unavailable_reason
          << '\n';
    }
    for (const std::string& failure : check.failures) {
      out << result.name << ": verification FAILED: " << failure << '\n';
    }
  }
  print_drift_table(out, results);
  print_phase_table(out, results);
  for (const std::string& note : context.model.notes) out << "model note: " << note << '\n';
  for (const StrategyResult& result : results) {
    const std::string unmodelled = model::unmodelled_reason(result.strategy);
    if (!unmodelled.empty()) out << result.name << ": no model bound: " << unmodelled << '\n';
  }
  if (context.backend.emulated()) {
    out << "host backend: these times are CPU threads standing in for a GPU, not GPU results\n";
  }
}

}  // namespace haloflag::bench
