// Summaries of repeated runs: percentiles by interpolation, and the slowest rank of each run that
// every rank timed at once (what the halo-set fits take).
#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

#include "sample_summary.hpp"

namespace {

using namespace haloflag::model::calibration;

TEST(SampleSummary, InterpolatesPercentilesBetweenOrderStatistics) {
  const SampleSummary s = summarize({5.0, 1.0, 4.0, 2.0, 3.0});
  EXPECT_EQ(s.count, 5);
  EXPECT_DOUBLE_EQ(s.median, 3.0);
  EXPECT_DOUBLE_EQ(s.p10, 1.4);
  EXPECT_DOUBLE_EQ(s.p90, 4.6);
  EXPECT_DOUBLE_EQ(s.min, 1.0);
  EXPECT_DOUBLE_EQ(s.max, 5.0);
  EXPECT_DOUBLE_EQ(s.mean, 3.0);
  EXPECT_THROW(summarize({}), std::invalid_argument);
}

// Two ranks whose kernels took turns on one GPU: each run, one finished early and the other
// late. Pooling every rank's runs puts the median between the two; the ranks of an exchange wait
// for the late one.
TEST(SlowestRankPerRun, TakesEachRunsSlowestRank) {
  const std::vector<std::vector<double>> per_rank = {{70.0, 130.0, 72.0, 128.0},
                                                     {131.0, 71.0, 129.0, 73.0}};
  EXPECT_EQ(slowest_rank_per_run(per_rank), (std::vector<double>{131.0, 130.0, 129.0, 128.0}));
  EXPECT_DOUBLE_EQ(summarize(slowest_rank_per_run(per_rank)).median, 129.5);
  EXPECT_DOUBLE_EQ(summarize({70.0, 130.0, 72.0, 128.0, 131.0, 71.0, 129.0, 73.0}).median, 100.5);
}

TEST(SlowestRankPerRun, OneRankIsItsOwnSlowest) {
  EXPECT_EQ(slowest_rank_per_run({{3.0, 1.0, 2.0}}), (std::vector<double>{3.0, 1.0, 2.0}));
}

TEST(SlowestRankPerRun, RejectsNoRanksAndUnequalRunCounts) {
  EXPECT_THROW(slowest_rank_per_run({}), std::invalid_argument);
  try {
    slowest_rank_per_run({{1.0, 2.0}, {1.0, 2.0}, {1.0}});
    FAIL() << "unequal run counts were accepted";
  } catch (const std::invalid_argument& error) {
    EXPECT_STREQ(error.what(), "slowest rank per run: rank 2 has 1 runs, rank 0 has 2");
  }
}

}  // namespace
