#include <cstdio>
#include <ostream>
#include <string>

#include "jacobi_report.hpp"

namespace jacobi3d {

namespace {

namespace hh = haloflag::halo;

std::string format(const char* pattern, double value) {
  char text[64];
  std::snprintf(text, sizeof text, pattern, value);
  return text;
}

}  // namespace

std::optional<double> JacobiReport::conventional_over(VariantKind other_kind) const {
  const VariantResult* conventional = nullptr;
  const VariantResult* other = nullptr;
  for (const VariantResult& result : variants) {
    if (result.kind == VariantKind::conventional) conventional = &result;
    if (result.kind == other_kind) other = &result;
  }
  if (conventional == nullptr || other == nullptr || other == conventional ||
      other->summary.median <= 0.0) {
    return std::nullopt;
  }
  return conventional->summary.median / other->summary.median;
}

void print_heading(std::ostream& out, const JacobiReport& report) {
  const hh::GeometrySpec& spec = report.problem.geometry.spec();
  const hh::Subdomain sub = report.problem.geometry.subdomain(0);
  out << "haloflag_jacobi3d: " << stencil_points(report.problem.stencil) << "-point Jacobi in "
      << to_string(report.problem.precision) << ", global "
      << hh::format_triple(spec.global_size, 'x') << " (periodic) over " << spec.ranks
      << " rank(s), rank grid " << hh::format_triple(*spec.divide, 'x') << ", local "
      << hh::format_triple(sub.extent, 'x') << "\n";
  out << "halo: " << report.messages_per_rank << " messages per rank and iteration, "
      << report.halo_bytes_per_rank << " bytes sent by rank 0\n";
  out << "backend: " << report.backend.describe() << "\n";
  out << "MPI: " << report.machine.run.mpi_library << "\n";
  if (!report.machine.cpu_model.empty()) out << "CPU (rank 0): " << report.machine.cpu_model << "\n";
  for (const auto& gpu : report.machine.gpus) out << "GPU: " << gpu.description << "\n";
  out << "timing: " << report.options.warmup << " warm-up run(s), then " << report.options.repeats
      << " timed runs of " << report.options.iterations
      << " iterations per variant (alternating); time per iteration = run time / iterations, "
         "slowest rank\n";
}

void print_table(std::ostream& out, const JacobiReport& report) {
  out << "\n";
  out << "variant        median us   p10 us     p90 us     check      launch\n";
  for (const VariantResult& result : report.variants) {
    std::string name(to_string(result.kind));
    name.resize(14, ' ');
    std::string check = !result.check ? "-" : result.check->identical ? "identical" : "DIFFERS";
    check.resize(10, ' ');
    out << name << " " << format("%-11.2f", result.summary.median)
        << format("%-11.2f", result.summary.p10) << format("%-11.2f", result.summary.p90) << check
        << " " << result.launch << "\n";
  }
  bool first_ratio = true;
  for (const VariantResult& result : report.variants) {
    if (const auto ratio = report.conventional_over(result.kind)) {
      out << (first_ratio ? "\n" : "") << "conventional / " << to_string(result.kind)
          << " (median per iteration, same run): " << format("%.3f", *ratio) << "x\n";
      first_ratio = false;
    }
  }
  for (const VariantResult& result : report.variants) {
    if (result.check) out << to_string(result.kind) << " check: " << result.check->message << "\n";
  }
}

}  // namespace jacobi3d
