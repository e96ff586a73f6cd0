// What haloflag_jacobi2d reports (complete on rank 0): the set-up, the single-device reference,
// the copy rate, and per variant the time per iteration of the slowest rank, its update's own
// rate, and its check against the reference.
#pragma once

#include <iosfwd>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "haloflag/bench/copy_rate.hpp"
#include "haloflag/examples/run_facts.hpp"
#include "options.hpp"
#include "problem.hpp"
#include "reference.hpp"
#include "sample_summary.hpp"

namespace jacobi2d {

struct UpdateRate {
  double us_per_iteration = 0.0;   // the updates alone (run_updates_only), slowest rank
  double bytes_per_iteration = 0;  // every updated cell read and written once
  double bytes_per_second = 0.0;
  double fraction_of_copy_rate = 0.0;
};

struct VariantResult {
  VariantKind kind = VariantKind::conventional_overlap;
  std::string launch;
  CheckResult check;
  std::vector<double> per_iteration_us;  // per timed run: slowest rank's seconds / niter
  haloflag::model::calibration::SampleSummary summary;
  UpdateRate update;
  double last_norm = 0.0;  // the check run's last norm
};

struct Report {
  Options options;
  haloflag::examples::RunFacts run;  // command line, backend, machine
  Problem problem;
  haloflag::bench::CopyRate copy_rate;  // rank 0's
  double reference_seconds = 0.0;       // the slowest rank's single-device run
  std::vector<VariantResult> variants;

  // The conventional variant's median over `other`'s, when both ran (the only conventional
  // loop here is the overlapped one: the baseline).
  std::optional<double> conventional_over(VariantKind other) const;
};

void print_heading(std::ostream& out, const Report& report);
void print_table(std::ostream& out, const Report& report);
// variant, nx, ny, iter_max, nccheck, num_devices, 1, runtime, runtime_serial (seconds).
void print_csv(std::ostream& out, const Report& report);
nlohmann::json report_json(const Report& report);

}  // namespace jacobi2d
