// measure_copy_rate (bench/common) on the host backend: the figure counts the read and the
// write of every byte, the copy is the size asked for, and bad arguments are refused.
#include <gtest/gtest.h>

#include <stdexcept>

#include "haloflag/bench/copy_rate.hpp"

namespace {

using haloflag::bench::CopyRate;
using haloflag::bench::measure_copy_rate;
using haloflag::notify::Backend;

TEST(CopyRate, HostCopyCountsTheReadAndTheWrite) {
  constexpr std::int64_t kBytes = 4 << 20;
  const CopyRate rate = measure_copy_rate(Backend::host, kBytes, 5);
  EXPECT_EQ(rate.bytes, kBytes);
  EXPECT_GT(rate.seconds, 0.0);
  EXPECT_GT(rate.bytes_per_second, 0.0);
  EXPECT_DOUBLE_EQ(rate.bytes_per_second, 2.0 * static_cast<double>(kBytes) / rate.seconds);
}

TEST(CopyRate, OneByteAndOneRepeatAreEnough) {
  const CopyRate rate = measure_copy_rate(Backend::host, 1, 1);
  EXPECT_EQ(rate.bytes, 1);
  EXPECT_GT(rate.bytes_per_second, 0.0);
}

TEST(CopyRate, RefusesNothingToCopyAndNoRepeats) {
  EXPECT_THROW((void)measure_copy_rate(Backend::host, 0), std::invalid_argument);
  EXPECT_THROW((void)measure_copy_rate(Backend::host, 1024, 0), std::invalid_argument);
}

}  // namespace
