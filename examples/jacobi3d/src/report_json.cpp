#include <nlohmann/json.hpp>

#include "haloflag/bench/json_sections.hpp"
#include "haloflag/bench/machine_info.hpp"
#include "haloflag/bench/summary_json.hpp"
#include "jacobi_report.hpp"

namespace jacobi3d {

namespace {

namespace hh = haloflag::halo;
using haloflag::bench::build_json;
using haloflag::bench::summary_json;
using nlohmann::json;

json triple(const hh::Index3& values) { return json::array({values[0], values[1], values[2]}); }

json parameters_json(const JacobiOptions& options) {
  return {{"variant", options.variant_argument},
          {"stencil", stencil_points(options.stencil)},
          {"precision", to_string(options.precision)},
          {"size_kind", options.size_kind == SizeKind::global ? "global" : "per_rank"},
          {"size", triple(options.size)},
          {"iterations", options.iterations},
          {"warmup", options.warmup},
          {"repeats", options.repeats},
          {"backend", options.backend_name},
          {"transport", options.transport},
          {"node_size", options.node_size},
          {"node_lines_up_to_bytes", options.node_lines_up_to_bytes},
          {"progress", options.progress},
          {"gpu", options.gpu},
          {"check", options.check},
          {"timeout_s", options.timeout_seconds},
          {"gpu_threads", options.gpu_threads},
          {"resident_blocks", options.resident_blocks},
          {"node_blocks", options.node_blocks},
          {"node_piece_bytes", options.node_piece_bytes},
          {"sends_update", options.sends_update},
          {"interior_by_counter", options.interior_by_counter},
          {"next_exchange_told", options.next_exchange_told},
          {"host_threads", options.host_team_threads},
          {"conventional_strategy", options.conventional_strategy},
          {"update_rate", options.update_rate}};
}

json problem_json(const JacobiReport& report) {
  const hh::GeometrySpec& spec = report.problem.geometry.spec();
  return {{"stencil_points", stencil_points(report.problem.stencil)},
          {"precision", to_string(report.problem.precision)},
          {"element_bytes", spec.element_bytes},
          {"global_size", triple(spec.global_size)},
          {"rank_grid", json::array({(*spec.divide)[0], (*spec.divide)[1], (*spec.divide)[2]})},
          {"local_size", triple(report.problem.geometry.subdomain(0).extent)},
          {"ghost_width", kGhostWidth},
          {"periodic", true},
          {"messages_per_rank", report.messages_per_rank},
          {"halo_bytes_rank0", report.halo_bytes_per_rank}};
}

}  // namespace

nlohmann::json report_json(const JacobiReport& report) {
  const VariantResult* base = report.baseline();
  json variants = json::array();
  for (const VariantResult& result : report.variants) {
    json entry = {{"variant", to_string(result.kind)},
                  {"launch", result.launch},
                  {"unit", "microseconds per iteration, slowest rank, per timed run"},
                  {"per_iteration_us", result.per_iteration_us},
                  {"summary_us", summary_json(result.summary)}};
    const auto ratio = report.baseline_over(result);
    entry["baseline_over_this_median"] = ratio ? json(*ratio) : json(nullptr);
    if (result.check) {
      entry["check"] = {{"identical", result.check->identical},
                        {"message", result.check->message}};
    }
    if (result.update) {
      const UpdateRate& update = *result.update;
      entry["update"] = {
          {"unit", "the update kernels alone (no exchange), microseconds per iteration, slowest "
                   "rank, per timed run"},
          {"per_iteration_us", update.per_iteration_us},
          {"summary_us", summary_json(update.summary)},
          {"us_per_iteration", update.summary.median},
          {"bytes_per_iteration", update.bytes_per_iteration},
          {"bytes_per_second", update.bytes_per_second},
          {"fraction_of_copy_rate", update.fraction_of_copy_rate
                                        ? json(*update.fraction_of_copy_rate)
                                        : json(nullptr)}};
    }
    variants.push_back(entry);
  }
  json copy_rate = nullptr;
  if (report.copy_rate) {
    copy_rate = {{"what", "device-to-device copy of one field buffer (ghosts included) between "
                          "two fresh buffers, median of the repeats; read and write counted; "
                          "the slowest rank's"},
                 {"bytes", report.copy_rate->bytes},
                 {"seconds", report.copy_rate->seconds},
                 {"bytes_per_second", report.copy_rate->bytes_per_second}};
  }
  json ratios = json::object();
  for (const VariantResult& result : report.variants) {
    if (&result == base) continue;
    if (const auto ratio = report.baseline_over(result)) ratios[to_string(result.kind)] = *ratio;
  }
  return {
      {"tool", "haloflag_jacobi3d"},
      {"command_line", report.run.command_line},
      {"parameters", parameters_json(report.options)},
      {"backend",
       {{"name", haloflag::notify::to_string(report.run.backend.backend)},
        {"requested", report.run.backend.requested},
        {"reason", report.run.backend.reason},
        {"emulated_on_host", report.run.backend.emulated()}}},
      {"build", build_json()},
      {"machine", haloflag::bench::machine_run_json(report.run.machine)},
      {"problem", problem_json(report)},
      {"variants", variants},
      {"copy_rate", copy_rate},
      {"baseline", base != nullptr ? json(to_string(base->kind)) : json(nullptr)},
      {"baseline_rule", "the faster (lower median per iteration) of the conventional variants "
                        "in this run; every ratio is the baseline's median / the variant's"},
      {"baseline_over_median", ratios}};
}

}  // namespace jacobi3d
