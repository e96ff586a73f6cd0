#include <ostream>
#include <string>

#include "haloflag/examples/format.hpp"
#include "jacobi_report.hpp"

namespace jacobi3d {

namespace {

namespace hh = haloflag::halo;

using haloflag::examples::format;

}  // namespace

const VariantResult* JacobiReport::baseline() const {
  const VariantResult* fastest = nullptr;
  for (const VariantResult& result : variants) {
    if (is_conventional(result.kind) &&
        (fastest == nullptr || result.summary.median < fastest->summary.median)) {
      fastest = &result;
    }
  }
  return fastest;
}

std::optional<double> JacobiReport::baseline_over(const VariantResult& other) const {
  const VariantResult* base = baseline();
  if (base == nullptr || other.summary.median <= 0.0) return std::nullopt;
  return base->summary.median / other.summary.median;
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
  haloflag::examples::print_run_facts(out, report.run);
  out << "timing: " << report.options.warmup << " warm-up run(s), then " << report.options.repeats
      << " timed runs of " << report.options.iterations
      << " iterations per variant (alternating); time per iteration = run time / iterations, "
         "slowest rank\n";
}

void print_table(std::ostream& out, const JacobiReport& report) {
  constexpr std::size_t kNameWidth = 21;
  out << "\n";
  out << "variant               median us   p10 us     p90 us     check      launch\n";
  for (const VariantResult& result : report.variants) {
    std::string name(to_string(result.kind));
    name.resize(kNameWidth, ' ');
    std::string check = !result.check ? "-" : result.check->identical ? "identical" : "DIFFERS";
    check.resize(10, ' ');
    out << name << " " << format("%-11.2f", result.summary.median)
        << format("%-11.2f", result.summary.p10) << format("%-11.2f", result.summary.p90) << check
        << " " << result.launch << "\n";
  }
  if (const VariantResult* base = report.baseline()) {
    const std::string base_name(to_string(base->kind));
    out << "\nbaseline: " << base_name
        << " (the faster conventional loop of this run, by median per iteration)\n";
    for (const VariantResult& result : report.variants) {
      if (&result == base) continue;
      if (const auto ratio = report.baseline_over(result)) {
        out << base_name << " / " << to_string(result.kind)
            << " (median per iteration, same run): " << format("%.3f", *ratio) << "x\n";
      }
    }
  }
  if (report.copy_rate) {
    const haloflag::bench::CopyRate& copy = *report.copy_rate;
    out << "\nupdate alone (each variant's update kernels without the exchange, the slowest "
           "rank), against the copy rate: "
        << format("%.1f", copy.bytes_per_second * 1e-9) << " GB/s (a copy of "
        << format("%.2f", static_cast<double>(copy.bytes) * 1e-6)
        << " MB, one field buffer, read and write counted; the slowest rank)\n";
    out << "variant               update us   MB/iteration  GB/s       of copy rate\n";
    for (const VariantResult& result : report.variants) {
      if (!result.update) continue;
      std::string name(to_string(result.kind));
      name.resize(kNameWidth, ' ');
      const UpdateRate& update = *result.update;
      out << name << " " << format("%-11.2f", update.summary.median)
          << format("%-14.3f", static_cast<double>(update.bytes_per_iteration) * 1e-6)
          << format("%-11.1f", update.bytes_per_second * 1e-9)
          << (update.fraction_of_copy_rate
                  ? format("%.0f%%", *update.fraction_of_copy_rate * 100.0)
                  : std::string("-"))
          << "\n";
    }
  }
  for (const VariantResult& result : report.variants) {
    if (result.check) out << to_string(result.kind) << " check: " << result.check->message << "\n";
  }
}

}  // namespace jacobi3d
