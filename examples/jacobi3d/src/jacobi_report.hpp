// What haloflag_jacobi3d reports (complete on rank 0): the run's set-up and, per variant, the
// time per iteration of the slowest rank over the timed repeats, and the update's rate against
// the device's copy rate.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "haloflag/bench/copy_rate.hpp"
#include "haloflag/examples/run_facts.hpp"
#include "jacobi_options.hpp"
#include "problem.hpp"
#include "reference_check.hpp"
#include "sample_summary.hpp"

namespace jacobi3d {

// A variant's update kernels timed alone (JacobiVariant::run_updates_only), the slowest rank.
struct UpdateRate {
  std::vector<double> per_iteration_us;  // per repeat: max over ranks of run time / iterations
  haloflag::model::calibration::SampleSummary summary;
  std::int64_t bytes_per_iteration = 0;  // each owned cell read once and written once
  double bytes_per_second = 0.0;         // bytes_per_iteration / the median
  std::optional<double> fraction_of_copy_rate;  // bytes_per_second / the copy rate
};

struct VariantResult {
  VariantKind kind = VariantKind::conventional;
  std::string launch;                      // kernel shapes and exchange strategy
  std::optional<CheckResult> check;        // with --check
  std::vector<double> per_iteration_us;    // per repeat: max over ranks of run time / iterations
  haloflag::model::calibration::SampleSummary summary;
  std::optional<UpdateRate> update;        // unless --no-update-rate
};

struct JacobiReport {
  JacobiOptions options;
  haloflag::examples::RunFacts run;  // command line, backend, machine
  Problem problem;
  int messages_per_rank = 0;        // sends of rank 0 (every rank has as many)
  std::int64_t halo_bytes_per_rank = 0;  // bytes rank 0 sends per iteration
  std::vector<VariantResult> variants;
  // The device's copy rate (measure_copy_rate of one field buffer), the slowest rank's; unless
  // --no-update-rate.
  std::optional<haloflag::bench::CopyRate> copy_rate;

  // The baseline of every ratio: the faster (lower median) of the conventional variants that
  // ran; none when neither did.
  const VariantResult* baseline() const;
  // The baseline's median / `other`'s median, when there is a baseline.
  std::optional<double> baseline_over(const VariantResult& other) const;
};

void print_heading(std::ostream& out, const JacobiReport& report);
void print_table(std::ostream& out, const JacobiReport& report);
// The JSON report: parameters, build, machine, every timed run per variant.
nlohmann::json report_json(const JacobiReport& report);

}  // namespace jacobi3d
