#include "report.hpp"

#include <ostream>

#include "haloflag/bench/json_sections.hpp"
#include "haloflag/bench/machine_info.hpp"
#include "haloflag/bench/summary_json.hpp"
#include "haloflag/examples/format.hpp"

namespace jacobi2d {

namespace {

using nlohmann::json;

using haloflag::examples::format;

std::string padded(std::string text, std::size_t width) {
  if (text.size() < width) text.resize(width, ' ');
  return text;
}

json parameters_json(const Options& options) {
  return {{"nx", options.nx},
          {"ny", options.ny},
          {"niter", options.niter},
          {"nccheck", options.nccheck},
          {"variant", options.variant_argument},
          {"precision", to_string(options.precision)},
          {"warmup", options.warmup},
          {"repeats", options.repeats},
          {"backend", options.backend_name},
          {"gpu", options.gpu},
          {"timeout_s", options.timeout_seconds},
          {"gpu_threads", options.gpu_threads},
          {"resident_blocks", options.resident_blocks},
          {"node_blocks", options.node_blocks},
          {"node_piece_bytes", options.node_piece_bytes},
          {"sends_update", options.sends_update},
          {"next_exchange_told", options.next_exchange_told},
          {"host_threads", options.host_team_threads},
          {"transport", options.transport},
          {"progress", options.progress},
          {"conventional_strategy", options.conventional_strategy}};
}

double median_seconds(const Report& report, const VariantResult& result) {
  return result.summary.median * 1e-6 * report.options.niter;
}

}  // namespace

std::optional<double> Report::conventional_over(VariantKind other_kind) const {
  const VariantResult* conventional = nullptr;
  const VariantResult* other = nullptr;
  for (const VariantResult& result : variants) {
    if (result.kind == VariantKind::conventional_overlap) conventional = &result;
    if (result.kind == other_kind) other = &result;
  }
  if (conventional == nullptr || other == nullptr || other == conventional ||
      other->summary.median <= 0.0) {
    return std::nullopt;
  }
  return conventional->summary.median / other->summary.median;
}

void print_heading(std::ostream& out, const Report& report) {
  const Problem& problem = report.problem;
  out << "haloflag_jacobi2d: " << problem.nx << " x " << problem.ny << " Jacobi in "
      << to_string(problem.precision) << ", rows 1.." << problem.ny - 2 << " over "
      << problem.geometry.ranks() << " rank(s) (rank 0: " << problem.rows(0) << " rows), "
      << report.options.niter << " iterations, the norm every " << report.options.nccheck << "\n";
  haloflag::examples::print_run_facts(out, report.run);
  out << "timing: " << report.options.warmup << " warm-up run(s), then " << report.options.repeats
      << " timed runs per variant (alternating); time per iteration = run time / iterations, "
         "slowest rank\n";
}

void print_table(std::ostream& out, const Report& report) {
  out << "\ncopy rate (rank 0, " << report.copy_rate.bytes << " bytes copied, read + write): "
      << format("%.1f", report.copy_rate.bytes_per_second * 1e-9) << " GB/s\n";
  out << "single-device reference: "
      << format("%.2f", report.reference_seconds * 1e6 / report.options.niter)
      << " us per iteration\n\n";
  out << "variant               median us  p10 us     p90 us     update us  update GB/s  of copy  "
         "check\n";
  for (const VariantResult& result : report.variants) {
    out << padded(std::string(to_string(result.kind)), 22)
        << format("%-11.2f", result.summary.median) << format("%-11.2f", result.summary.p10)
        << format("%-11.2f", result.summary.p90) << format("%-11.2f", result.update.us_per_iteration)
        << format("%-13.1f", result.update.bytes_per_second * 1e-9)
        << format("%-9.2f", result.update.fraction_of_copy_rate)
        << (result.check.identical ? "identical" : "DIFFERS") << "\n";
  }
  out << "\n";
  for (const VariantResult& result : report.variants) {
    if (const auto ratio = report.conventional_over(result.kind)) {
      out << "conventional_overlap / " << to_string(result.kind)
          << " (median per iteration, same run): " << format("%.3f", *ratio) << "x\n";
    }
  }
  for (const VariantResult& result : report.variants) {
    out << to_string(result.kind) << ": " << result.launch << "\n";
    out << to_string(result.kind) << " check: " << result.check.message << "; last norm "
        << format("%.6e", result.last_norm) << "\n";
  }
}

void print_csv(std::ostream& out, const Report& report) {
  for (const VariantResult& result : report.variants) {
    out << to_string(result.kind) << ", " << report.problem.nx << ", " << report.problem.ny << ", "
        << report.options.niter << ", " << report.options.nccheck << ", "
        << report.problem.geometry.ranks() << ", 1, "
        << format("%f", median_seconds(report, result)) << ", "
        << format("%f", report.reference_seconds) << "\n";
  }
}

nlohmann::json report_json(const Report& report) {
  json variants = json::array();
  for (const VariantResult& result : report.variants) {
    variants.push_back(
        {{"variant", to_string(result.kind)},
         {"launch", result.launch},
         {"unit", "microseconds per iteration, slowest rank, per timed run"},
         {"per_iteration_us", result.per_iteration_us},
         {"summary_us", haloflag::bench::summary_json(result.summary)},
         {"runtime_s", median_seconds(report, result)},
         {"update",
          {{"us_per_iteration", result.update.us_per_iteration},
           {"bytes_per_iteration", result.update.bytes_per_iteration},
           {"bytes_per_second", result.update.bytes_per_second},
           {"fraction_of_copy_rate", result.update.fraction_of_copy_rate}}},
         {"check", {{"identical", result.check.identical}, {"message", result.check.message}}},
         {"last_norm", result.last_norm}});
  }
  json ratios = json::object();
  for (const VariantResult& result : report.variants) {
    if (const auto ratio = report.conventional_over(result.kind)) {
      ratios[std::string(to_string(result.kind))] = *ratio;
    }
  }
  const Problem& problem = report.problem;
  return {{"tool", "haloflag_jacobi2d"},
          {"command_line", report.run.command_line},
          {"parameters", parameters_json(report.options)},
          {"backend", haloflag::bench::backend_json(report.run.backend)},
          {"build", haloflag::bench::build_json()},
          {"machine", haloflag::bench::machine_run_json(report.run.machine)},
          {"problem",
           {{"nx", problem.nx},
            {"ny", problem.ny},
            {"precision", to_string(problem.precision)},
            {"ranks", problem.geometry.ranks()},
            {"rows_rank0", problem.rows(0)}}},
          {"copy_rate",
           {{"bytes", report.copy_rate.bytes},
            {"bytes_per_second", report.copy_rate.bytes_per_second},
            {"seconds", report.copy_rate.seconds}}},
          {"reference",
           {{"runtime_serial_s", report.reference_seconds},
            {"us_per_iteration", report.reference_seconds * 1e6 / report.options.niter}}},
          {"baseline", "conventional_overlap"},
          {"conventional_over_median", ratios},
          {"variants", variants}};
}

}  // namespace jacobi2d
