#include "report_json.hpp"

#include <filesystem>
#include <optional>

#include "haloflag/bench/json_sections.hpp"
#include "haloflag/bench/summary_json.hpp"
#include "haloflag/halo/nccl_library.hpp"
#include "nccl_comparison.hpp"
#include "plain_nccl.hpp"
#include "report_table.hpp"

namespace haloflag::bench {

namespace {

using nlohmann::json;

json triple(const halo::Index3& values) { return json::array({values[0], values[1], values[2]}); }

json drift_json(const DriftSummary& drift) {
  return {{"window", drift.window},
          {"exchanges", drift.exchanges},
          {"first_median_us", drift.first_median_us},
          {"last_median_us", drift.last_median_us},
          {"last_over_first", drift.last_over_first}};
}

// nccl's steps on its stream (StreamStepMedians); null for the other strategies.
json stream_steps_json(const StreamStepMedians& steps) {
  if (!steps.any()) return nullptr;
  return {{"pack_launched", optional_json(steps.pack_launched)},
          {"transfers_enqueued", optional_json(steps.transfers_enqueued)},
          {"unpack_launched", optional_json(steps.unpack_launched)},
          {"done_seen", optional_json(steps.done_seen)},
          {"gpu_pack_us", optional_json(steps.gpu_pack)},
          {"gpu_transfers_us", optional_json(steps.gpu_transfers)},
          {"gpu_unpack_us", optional_json(steps.gpu_unpack)}};
}

// The traced pass: medians of the slowest rank's phase times, microseconds after start().
json phases_json(const TracedRun& traced) {
  const PhaseMedians& phases = traced.phases_us;
  return {{"traced_exchanges", traced.exchanges},
          {"unit", "microseconds after start(), slowest rank per exchange, median over the "
                   "traced exchanges"},
          {"started", optional_json(phases.started)},
          {"first_send_ready", optional_json(phases.first_send_ready)},
          {"last_send_ready", optional_json(phases.last_send_ready)},
          {"last_send_posted", optional_json(phases.last_send_posted)},
          {"last_receive", optional_json(phases.last_receive)},
          {"last_unpack_done", optional_json(phases.last_unpack_done)},
          {"post_per_send_us", optional_json(phases.post_per_send)},
          {"traced_total_us", summary_json(phases.total)},
          {"stream_steps", stream_steps_json(phases.stream)}};
}

json machine_json(const MachineInfo& machine) {
  json gpus = json::array();
  for (std::size_t rank = 0; rank < machine.gpus.size(); ++rank) {
    const RankGpu& gpu = machine.gpus[rank];
    gpus.push_back({{"rank", rank},
                    {"name", gpu.name},
                    {"pci_bus_id", gpu.pci_bus_id},
                    {"binding", gpu.description}});
  }
  return {{"hosts", machine.run.hosts}, {"cpu_model", machine.cpu_model}, {"gpus", gpus}};
}

json workload_json(const Workload& workload, const MessageSummary& messages) {
  json result = {{"default", workload.is_default}, {"description", workload.description},
                 {"ranks", workload.config.ranks}};
  if (!workload.config_file.empty()) {
    result["config_file"] = std::filesystem::absolute(workload.config_file).string();
  }
  if (workload.geometry) {
    const halo::GeometrySpec& spec = *workload.geometry;
    result["geometry"] = {{"size", triple(spec.global_size)},
                          {"divide", json::array({(*spec.divide)[0], (*spec.divide)[1],
                                                  (*spec.divide)[2]})},
                          {"periodic", spec.periodic},
                          {"ghost", triple(spec.ghost)},
                          {"vars", spec.vars},
                          {"element_bytes", spec.element_bytes},
                          {"neighbours", halo::stencil_points(spec.stencil)}};
  }
  json sizes = json::array();
  for (const MessageSizeCount& size : messages.busiest_rank_sizes) {
    sizes.push_back({{"bytes", size.bytes}, {"count", size.count}});
  }
  result["messages"] = {{"sends_per_rank", {messages.min_sends, messages.max_sends}},
                        {"recvs_per_rank", {messages.min_recvs, messages.max_recvs}},
                        {"send_bytes_per_rank", {messages.min_send_bytes, messages.max_send_bytes}},
                        {"busiest_rank", messages.busiest_rank},
                        {"busiest_rank_send_sizes", sizes}};
  return result;
}

json parameters_json(const BenchOptions& options) {
  json strategies = json::array();
  for (halo::Strategy strategy : options.strategies) strategies.push_back(halo::to_string(strategy));
  const kernels::LaunchSettings& launch = options.advanced.launch;
  return {{"strategy", options.strategy_argument},
          {"strategies", strategies},
          {"backend", options.backend_name},
          {"transport", options.transport_argument},
          {"node_size", options.node_size},
          {"node_mapping", halo::to_string(options.advanced.node_mapping)},
          {"node_placement", halo::to_string(options.advanced.node_placement)},
          {"node_buffered_from_bytes", options.advanced.node_buffered_from_bytes},
          {"node_lines_up_to_bytes", options.advanced.node_lines_up_to_bytes},
          {"mpi_requests", options.advanced.persistent_requests ? "persistent" : "per-exchange"},
          {"mpi_piece_bytes", options.advanced.mpi_piece_bytes},
          {"piece_transfer", halo::to_string(options.advanced.piece_transfer)},
          {"tuning", options.tune ? "auto" : "fixed"},
          {"warmup", options.warmup},
          {"iterations", options.iterations},
          {"rounds", options.rounds},
          {"verify", options.verify},
          {"verify_each", options.verify_each},
          {"drift_window", options.drift_window},
          {"progress_s", options.progress_seconds},
          {"timeout_s", options.timeout_seconds},
          {"idle_exit", options.idle_exit},
          {"idle_gap_us", options.idle_gap_us},
          {"gpu", options.gpu},
          {"params", options.params_path},
          {"json", options.json_path},
          {"launch",
           {{"fused_threads", launch.fused_threads},
            {"message_threads", launch.message_threads},
            {"stacked_threads", launch.stacked_threads},
            {"stacked_blocks", launch.stacked_blocks},
            {"long_receive_blocks", launch.long_receive_blocks},
            {"long_send_blocks", launch.long_send_blocks},
            {"node_threads", launch.node_threads},
            {"node_blocks", launch.node_blocks},
            {"node_piece_bytes", launch.node_piece_bytes},
            {"host_threads", launch.host_threads},
            {"long_message_bytes", options.advanced.long_message_bytes},
            {"long_receives", options.advanced.long_receives_on_arrival ? "on-arrival" : "posted-first"},
            {"long_sends", options.advanced.long_sends_in_turn ? "in-turn" : "together"},
            {"poll_backoff_ns", options.poll_backoff_ns}}},
          {"trace_exchanges", options.trace_exchanges},
          {"trace", options.trace_path},
          {"trace_kept", options.trace_kept}};
}

json model_json(const ModelEstimate& model) {
  json result = {{"params_file", std::filesystem::absolute(model.params_file).string()},
                 {"params_source", model.provenance.source},
                 {"params_machine", model.provenance.machine},
                 {"params_date", model.provenance.date},
                 {"paper_machine", model.paper_machine},
                 {"mapping", model.mapping},
                 {"notes", model.notes},
                 {"params_how", model.params_choice.how},
                 {"params_key", model.params_choice.machine_key},
                 {"params_for_this_machine", model.params_choice.for_this_machine},
                 {"prediction_params_file", std::filesystem::absolute(model.params_file).string()},
                 {"prediction_unavailable_reason", ""}};
  if (model.params == nullptr || !model.params->schedule) {
    result["prediction_unavailable_reason"] =
        "the parameter file has no schedule terms (scripts/calibrate_machine.sh)";
  }
  if (model.bound_seconds) {
    result["bound_us"] = *model.bound_seconds * 1e6;
    result["critical_rank"] = model.critical_rank;
  } else {
    result["bound_us"] = nullptr;
    result["unavailable_reason"] = model.unavailable_reason;
  }
  return result;
}

// The order of work an Exchange used: chosen at set-up ("tuned") or as given.
json tuning_json(const halo::TuningReport& report) {
  json candidates = json::array();
  for (const halo::TunedCandidate& candidate : report.candidates) {
    candidates.push_back({{"order", candidate.order.describe()},
                          {"median_us", candidate.median_us >= 0.0 ? json(candidate.median_us)
                                                                   : json(nullptr)},
                          {"skipped_because", candidate.skipped_because}});
  }
  return {{"tuned", report.tuned},
          {"summary", report.summary()},
          {"long_receives_on_arrival", report.chosen.long_receives_on_arrival},
          {"long_sends_in_turn", report.chosen.long_sends_in_turn},
          {"long_receive_blocks", report.chosen.long_receive_blocks},
          {"mpi_piece_bytes", report.chosen.mpi_piece_bytes},
          {"exchanges_per_candidate", report.exchanges_per_candidate},
          {"candidates", candidates}};
}

json gpu_sharing_json(const RunContext& context) {
  json left_out = json::array();
  for (halo::Strategy strategy : context.left_out) left_out.push_back(halo::to_string(strategy));
  const GpuSharing& sharing = context.gpu_sharing;
  return {{"ranks_per_gpu", sharing.ranks_per_gpu},
          {"mps", sharing.mps},
          {"mps_note", sharing.mps_note},
          {"description", sharing.describe()},
          {"left_out", left_out}};
}

// The library behind the nccl strategy, and what this run could not run, with why.
json nccl_json(const RunContext& context) {
  const halo::NcclLibrary library = halo::nccl_library();
  json not_run = json::array();
  for (const auto& [strategy, why] : context.not_run) {
    not_run.push_back({{"strategy", halo::to_string(strategy)}, {"reason", why}});
  }
  return {{"built", library.built},
          {"library", library.name},
          {"note", library.note},
          {"header_version", library.header_version},
          {"runtime_version", library.runtime_version},
          {"description", describe_nccl_library()},
          {"strategies_not_run", not_run}};
}

json prediction_json(const RowPrediction& row, const ModelEstimate& model) {
  if (!row.prediction) return nullptr;
  const model::StrategyPrediction& predicted = *row.prediction;
  json phases = json::array();
  for (const model::PhaseTime& phase : predicted.phases) {
    phases.push_back({{"name", phase.name}, {"us", phase.seconds * 1e6}});
  }
  return {{"predicted_us", predicted.seconds * 1e6},
          {"phases", phases},
          {"fixed_us", predicted.fixed_seconds * 1e6},
          {"fixed_measured", predicted.fixed_measured},
          {"critical_rank", predicted.critical_rank},
          {"ranks_per_gpu", predicted.ranks_per_gpu},
          {"transport", predicted.node_transport_used ? "node" : "mpi"},
          {"terms_source", std::filesystem::absolute(model.params_file).string()},
          {"notes", predicted.notes}};
}

json strategy_json(const StrategyResult& result, std::optional<double> baseline_median_us,
                   const ModelEstimate& model, const RowPrediction& predicted) {
  const VerificationRecord& check = result.verification;
  json verification = {{"possible", check.possible},
                       {"exchanges", check.exchanges},
                       {"timed_verified", check.timed_verified},
                       {"passed", check.possible && check.passed},
                       {"wrong_exchanges", check.wrong_exchanges},
                       {"failures", check.failures}};
  if (!check.possible) verification["unavailable_reason"] = check.unavailable_reason;

  json entry = {{"name", result.name},
                {"strategy", result.plain_nccl ? std::string(kPlainNcclName)
                                               : std::string(halo::to_string(result.strategy))},
                {"plain_program", result.plain_nccl},
                {"transport", halo::to_string(result.transport)},
                {"transport_used", transports_used(result)},
                {"node_links", result.node_links},
                {"mpi_links", result.mpi_links},
                {"node_sends_through_buffer", result.node_sends_through_buffer},
                {"peers_rank0", result.peers_rank0},
                {"launch_description", result.launch_description},
                {"timed_relaunches", result.timed_relaunches},
                {"mpi_piece_bytes", result.mpi_piece_bytes},
                {"tuned", result.tuned},
                {"order_of_work", tuning_json(result.tuning)},
                {"verification", verification},
                {"samples_us", result.samples_us},
                {"model_params_file", std::filesystem::absolute(model.params_file).string()},
                {"model_bound_us", nullptr},
                {"summary_us", nullptr},
                {"speedup_vs_comb_fused", nullptr},
                {"measured_over_model", nullptr}};
  if (model.bound_seconds) entry["model_bound_us"] = *model.bound_seconds * 1e6;
  if (result.summary_us) {
    const double median = result.summary_us->median;
    entry["summary_us"] = summary_json(*result.summary_us);
    if (baseline_median_us) entry["speedup_vs_comb_fused"] = *baseline_median_us / median;
    if (model.bound_seconds) entry["measured_over_model"] = median / (*model.bound_seconds * 1e6);
    if (predicted.prediction) {
      entry["predicted_over_measured"] = predicted.prediction->seconds * 1e6 / median;
    }
  }
  entry["prediction"] = prediction_json(predicted, model);
  if (!predicted.prediction) entry["prediction_unavailable_reason"] = predicted.unavailable_reason;
  entry["drift"] = result.drift ? drift_json(*result.drift) : json(nullptr);
  entry["phases"] = result.traced ? phases_json(*result.traced) : json(nullptr);
  return entry;
}

}  // namespace

nlohmann::json make_report_json(const RunContext& context,
                                const std::vector<StrategyResult>& results) {
  json strategies = json::array();
  for (const StrategyResult& result : results) {
    json entry = strategy_json(result, baseline_median(results, result),
                               model_for(context, result), prediction_for(context, result));
    if (result.strategy == halo::Strategy::nccl && !result.plain_nccl) {
      const StrategyResult* plain = plain_nccl_of(results);
      entry["vs_plain_nccl"] =
          plain != nullptr && plain->summary_us && result.summary_us
              ? json{{"median_us", plain->summary_us->median},
                     {"speedup", plain->summary_us->median / result.summary_us->median}}
              : json(nullptr);
    }
    if (result.strategy == halo::Strategy::nccl) {
      const auto fastest = fastest_over_node(results);
      entry["vs_fastest_over_node"] =
          fastest && result.summary_us
              ? json{{"name", fastest->name},
                     {"median_us", fastest->median_us},
                     {"speedup", fastest->median_us / result.summary_us->median}}
              : json(nullptr);
    }
    const auto over_mpi = comb_fused_median(results, halo::Transport::mpi);
    entry["speedup_vs_comb_fused_mpi"] =
        over_mpi && result.summary_us ? json(*over_mpi / result.summary_us->median) : json(nullptr);
    strategies.push_back(std::move(entry));
  }
  return {{"format", kReportFormat},
          {"version", kReportFormatVersion},
          {"tool", "halo_bench"},
          {"date", context.machine.run.date},
          {"command_line", context.command_line},
          {"build", build_json()},
          {"machine", machine_json(context.machine)},
          {"mpi",
           {{"library", context.machine.run.mpi_library},
            {"ranks", context.machine.run.ranks},
            {"settings", context.machine.run.mpi_settings}}},
          {"backend", backend_json(context.backend)},
          {"gpu_sharing", gpu_sharing_json(context)},
          {"nccl", nccl_json(context)},
          {"workload", workload_json(context.workload, context.messages)},
          {"parameters", parameters_json(context.options)},
          {"model", model_json(context.model)},
          {"model_node_transport",
           context.node_model ? model_json(*context.node_model) : json(nullptr)},
          {"time_unit", "microseconds; an exchange's time is the slowest rank's"},
          {"strategies", strategies}};
}

}  // namespace haloflag::bench
