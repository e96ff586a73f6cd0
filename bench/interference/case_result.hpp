// What one case (scenario, access form, size) measured, with its ratios to the baseline and to
// SSB of the same size.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sample_summary.hpp"
#include "scenario.hpp"

namespace haloflag::bench::interference {

// The receiver's check of one round's data against the pattern the sender's buffer held.
struct DataCheck {
  bool checked = false;
  std::uint64_t mismatches = 0;
  std::int64_t first_mismatch = -1;  // word index
  std::string not_checked_reason;    // when !checked

  bool passed() const { return !checked || mismatches == 0; }
};

struct CaseResult {
  CaseKey key;
  std::vector<double> samples_us;  // one MPI_Send per timed round
  model::calibration::SampleSummary summary_us;
  // Passes of the GPU over the buffer it keeps writing, per timed round (from the notification
  // until it saw the stop flag); empty unless it writes during the send.
  std::vector<double> gpu_passes;
  std::size_t target_offset_bytes = 0;  // of that buffer from the send buffer's start
  std::optional<std::uint64_t> copy_pairs;  // copies: pairs of copies completed during the case
  DataCheck check;
  std::optional<double> slowdown_vs_none;  // median over the baseline's median, same size
  std::optional<double> slowdown_vs_ssb;   // median over SSB's median, same size and access form
};

// Fills in the two ratios of `result` from the cases measured before it (same size).
void set_ratios(CaseResult& result, const std::vector<CaseResult>& earlier);

}  // namespace haloflag::bench::interference
