// What haloflag_jacobi3d reports (complete on rank 0): the run's set-up and, per variant, the
// time per iteration of the slowest rank over the timed repeats.
#pragma once

#include <iosfwd>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "haloflag/bench/backend_choice.hpp"
#include "haloflag/bench/machine_info.hpp"
#include "jacobi_options.hpp"
#include "problem.hpp"
#include "reference_check.hpp"
#include "sample_summary.hpp"

namespace jacobi3d {

struct VariantResult {
  VariantKind kind = VariantKind::conventional;
  std::string launch;                      // kernel shapes and exchange strategy
  std::optional<CheckResult> check;        // with --check
  std::vector<double> per_iteration_us;    // per repeat: max over ranks of run time / iterations
  haloflag::model::calibration::SampleSummary summary;
};

struct JacobiReport {
  JacobiOptions options;
  std::vector<std::string> command_line;
  haloflag::bench::BackendChoice backend;
  haloflag::bench::MachineInfo machine;
  Problem problem;
  int messages_per_rank = 0;        // sends of rank 0 (every rank has as many)
  std::int64_t halo_bytes_per_rank = 0;  // bytes rank 0 sends per iteration
  std::vector<VariantResult> variants;

  // conventional median / `other`'s median, when both ran.
  std::optional<double> conventional_over(VariantKind other) const;
};

void print_heading(std::ostream& out, const JacobiReport& report);
void print_table(std::ostream& out, const JacobiReport& report);
// The JSON report: parameters, build, machine, every timed run per variant.
nlohmann::json report_json(const JacobiReport& report);

}  // namespace jacobi3d
