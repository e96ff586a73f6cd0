// How a GoogleTest run ends, as CTest should see it: 1 if anything failed; kSkippedExitCode
// when every test skipped (e.g. no GPU) and none failed, so CTest reports "skipped" rather than
// a vacuous pass; 0 otherwise. Skips mixed with passes are a pass, failures always a failure.
#pragma once

#include <gtest/gtest.h>

namespace haloflag::test {

inline constexpr int kSkippedExitCode = 77;  // matched by SKIP_RETURN_CODE in tests/CMakeLists.txt

enum class RunVerdict { passed = 0, failed = 1, all_skipped = 2 };

inline RunVerdict verdict_of(const testing::UnitTest& unit) {
  if (unit.failed_test_count() > 0 || unit.ad_hoc_test_result().Failed()) return RunVerdict::failed;
  if (unit.successful_test_count() == 0 && unit.skipped_test_count() > 0) return RunVerdict::all_skipped;
  return RunVerdict::passed;
}

inline int exit_code_of(RunVerdict verdict) {
  switch (verdict) {
    case RunVerdict::passed: return 0;
    case RunVerdict::all_skipped: return kSkippedExitCode;
    case RunVerdict::failed: return 1;
  }
  return 1;
}

}  // namespace haloflag::test
