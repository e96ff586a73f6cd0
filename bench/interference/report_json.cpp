#include "report_json.hpp"

#include <cmath>

#include "access_program.hpp"
#include "haloflag/bench/json_sections.hpp"
#include "haloflag/bench/summary_json.hpp"

namespace haloflag::bench::interference {

namespace {

using nlohmann::json;

// Samples to 1 ns: enough for times of a microsecond and more, and a readable file.
double rounded(double microseconds) { return std::round(microseconds * 1000.0) / 1000.0; }

json shape_json(const std::optional<AccessShape>& shape) {
  if (!shape) return nullptr;
  return {{"blocks", shape->blocks},
          {"threads_per_block", shape->threads},
          {"blocks_per_multiprocessor", shape->blocks_per_multiprocessor},
          {"multiprocessors", shape->multiprocessors},
          {"description", shape->description}};
}

json case_json(const CaseResult& result) {
  json samples = json::array();
  for (const double sample : result.samples_us) samples.push_back(rounded(sample));
  json passes = json::array();
  for (const double pass : result.gpu_passes) passes.push_back(std::round(pass * 100.0) / 100.0);
  const DataCheck& check = result.check;
  json check_json = {{"checked", check.checked}, {"passed", check.passed()}};
  if (check.checked) {
    check_json["mismatched_words"] = check.mismatches;
    check_json["first_mismatch"] = check.first_mismatch >= 0 ? json(check.first_mismatch) : json(nullptr);
  } else {
    check_json["reason"] = check.not_checked_reason;
  }
  return {
      {"scenario", to_string(result.key.scenario)},
      {"access", result.key.access ? json(to_string(*result.key.access)) : json(nullptr)},
      {"bytes", result.key.bytes},
      {"kernel_writes", kernel_writes(result.key.scenario)},
      {"writes_during_send", writes_during_send(result.key.scenario)},
      {"target_offset_bytes",
       writes_during_send(result.key.scenario) ? json(result.target_offset_bytes) : json(nullptr)},
      {"summary_us", summary_json(result.summary_us)},
      {"slowdown_vs_none", optional_json(result.slowdown_vs_none)},
      {"slowdown_vs_ssb", optional_json(result.slowdown_vs_ssb)},
      {"gpu_passes_median",
       result.gpu_passes.empty() ? json(nullptr)
                                 : json(model::calibration::summarize(result.gpu_passes).median)},
      {"gpu_passes", passes},
      {"copy_pairs", result.copy_pairs ? json(*result.copy_pairs) : json(nullptr)},
      {"data_check", check_json},
      {"samples_us", samples},
  };
}

}  // namespace

json make_report_json(const RunReport& report) {
  const InterferenceOptions& options = report.options;
  json gpus = json::array();
  for (std::size_t rank = 0; rank < report.machine.gpus.size(); ++rank) {
    const RankGpu& gpu = report.machine.gpus[rank];
    gpus.push_back({{"rank", rank},
                    {"description", gpu.description},
                    {"name", gpu.name},
                    {"pci_bus_id", gpu.pci_bus_id}});
  }
  json scenarios = json::array();
  for (const Scenario scenario : options.scenarios) scenarios.push_back(to_string(scenario));
  json forms = json::array();
  for (const AccessForm form : options.forms) forms.push_back(to_string(form));
  json cases = json::array();
  for (const CaseResult& result : report.cases) cases.push_back(case_json(result));

  return {
      {"format", "haloflag-interference"},
      {"version", 1},
      {"tool", "interference"},
      {"date", report.machine.run.date},
      {"command_line", report.command_line},
      {"build", build_json()},
      {"machine",
       {{"hosts", report.machine.run.hosts},
        {"cpu_model", report.machine.cpu_model},
        {"gpus", gpus},
        {"writing_gpu", gpu_json(report.gpu)}}},
      {"mpi",
       {{"library", report.machine.run.mpi_library},
        {"ranks", report.machine.run.ranks},
        {"settings", report.machine.run.mpi_settings}}},
      {"backend", backend_json(report.backend)},
      {"roles",
       {{"sender_rank", 0},
        {"receiver_rank", 1},
        {"writer", "the sender's " + std::string(report.backend.emulated() ? "stand-in threads" : "GPU")},
        {"writer_description", report.accessor_description}}},
      {"access_shapes",
       {{"stream", shape_json(report.stream_shape)}, {"stacked", shape_json(report.stacked_shape)}}},
      {"copies", report.copies_description.empty()
                     ? json(nullptr)
                     : json({{"description", report.copies_description},
                             {"bytes_per_copy", options.copy_bytes}})},
      {"timing",
       {{"what", "MPI_Send of one buffer by rank 0, its receive posted by rank 1 beforehand"},
        {"clock", "std::chrono::steady_clock (host)"},
        {"unit", "us"}}},
      {"parameters",
       {{"backend", options.backend_name},
        {"gpu", options.gpu},
        {"scenarios", scenarios},
        {"access", forms},
        {"min_bytes", options.min_bytes},
        {"max_bytes", options.max_bytes},
        {"size_factor", options.size_factor},
        {"sizes", options.sizes},
        {"warmup", options.warmup},
        {"iterations", options.iterations},
        {"timeout_s", options.timeout_seconds},
        {"stop_poll_ns", options.stop_poll_ns},
        {"chunk_bytes", kChunkWords * sizeof(std::uint32_t)},
        {"p2ab_gap_bytes", options.p2ab_gap_bytes},
        {"copy_bytes", options.copy_bytes},
        {"stream_threads", options.accessor.stream_threads},
        {"stacked_threads", options.accessor.stacked_threads},
        {"stacked_blocks", options.accessor.stacked_blocks},
        {"host_threads", options.accessor.host_threads},
        {"json", options.json_path}}},
      {"cases", cases},
  };
}

}  // namespace haloflag::bench::interference
