#include "report_table.hpp"

#include <cstdio>
#include <string>

#include "haloflag/bench/build_info.hpp"

namespace haloflag::bench::interference {

namespace {

// 1024 -> "1 KiB", 3000 -> "3000 B".
std::string size_text(std::size_t bytes) {
  static const char* const units[] = {"B", "KiB", "MiB", "GiB"};
  int unit = 0;
  while (unit < 3 && bytes >= 1024 && bytes % 1024 == 0) {
    bytes /= 1024;
    ++unit;
  }
  return std::to_string(bytes) + " " + units[unit];
}

std::string ratio_text(const std::optional<double>& ratio) {
  if (!ratio) return "-";
  char text[32];
  std::snprintf(text, sizeof text, "%.2f", *ratio);
  return text;
}

std::string gpu_work_text(const CaseResult& result) {
  if (result.copy_pairs) return std::to_string(*result.copy_pairs) + " copy pairs";
  if (result.gpu_passes.empty()) return "-";
  char text[48];
  std::snprintf(text, sizeof text, "%.1f passes",
                model::calibration::summarize(result.gpu_passes).median);
  return text;
}

std::string check_text(const DataCheck& check) {
  if (!check.checked) return "not checked";
  if (check.mismatches == 0) return "ok";
  return "WRONG: " + std::to_string(check.mismatches) + " words, first " +
         std::to_string(check.first_mismatch);
}

}  // namespace

void print_heading(std::ostream& out, const RunReport& report) {
  const InterferenceOptions& options = report.options;
  out << "interference (haloflag " << build_info().haloflag_version
      << "): time of one MPI_Send from pinned host memory while the sender's GPU writes "
         "(paper section 4.3)\n";
  out << "backend    " << report.backend.describe() << '\n';
  out << "mpi        " << report.machine.run.mpi_library << '\n';
  out << "mpi env    "
      << model::calibration::describe_mpi_settings(report.machine.run.mpi_settings) << '\n';
  for (std::size_t rank = 0; rank < report.machine.run.hosts.size(); ++rank) {
    out << "rank " << rank << "     " << (rank == 0 ? "sender on " : "receiver on ")
        << report.machine.run.hosts[rank];
    if (rank < report.machine.gpus.size()) out << ", " << report.machine.gpus[rank].description;
    out << '\n';
  }
  if (!report.machine.cpu_model.empty()) out << "cpu        " << report.machine.cpu_model << '\n';
  out << "writer     " << report.accessor_description << '\n';
  if (report.stream_shape) out << "stream     " << report.stream_shape->description << '\n';
  if (report.stacked_shape) out << "stacked    " << report.stacked_shape->description << '\n';
  if (!report.copies_description.empty()) out << "copies     " << report.copies_description << '\n';
  out << "timing     " << options.warmup << " warm-up + " << options.iterations
      << " timed rounds per case; MPI_Send on the host's steady clock, receive pre-posted\n";
  out << "sizes      " << size_text(options.sizes.front()) << " to "
      << size_text(options.sizes.back()) << ", x" << options.size_factor << " steps\n\n";
  char line[160];
  std::snprintf(line, sizeof line, "%-9s %-8s %-7s %11s %10s %10s %7s %7s %16s  %s\n", "size",
                "access", "case", "median us", "p10", "p90", "x none", "x SSB", "GPU work",
                "data");
  out << line << std::flush;
}

void print_row(std::ostream& out, const CaseResult& result) {
  const CaseKey& key = result.key;
  const model::calibration::SampleSummary& s = result.summary_us;
  char line[256];
  std::snprintf(line, sizeof line, "%-9s %-8s %-7s %11.3f %10.3f %10.3f %7s %7s %16s  %s\n",
                size_text(key.bytes).c_str(),
                key.access ? std::string(to_string(*key.access)).c_str() : "-",
                std::string(to_string(key.scenario)).c_str(), s.median, s.p10, s.p90,
                ratio_text(result.slowdown_vs_none).c_str(),
                ratio_text(result.slowdown_vs_ssb).c_str(), gpu_work_text(result).c_str(),
                check_text(result.check).c_str());
  out << line << std::flush;
}

void print_footer(std::ostream& out, const RunReport& report) {
  out << "\nx none: median over the baseline's (no GPU access) of the same size; x SSB: over "
         "SSB's of the same size and access form.\n"
         "GPU work: median passes of the GPU over the buffer it keeps writing during the send, "
         "or copy pairs completed during the case.\n"
         "PSB changes the buffer while MPI sends it: outside the MPI standard, an extreme case "
         "only; its data is not checked.\n";
  if (report.backend.emulated()) {
    out << "host backend: CPU threads stand in for the GPU and its copy engines; these are not "
           "GPU results.\n";
  }
}

}  // namespace haloflag::bench::interference
