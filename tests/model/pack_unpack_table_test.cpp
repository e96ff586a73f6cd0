// The pack/unpack table: exact points, linear interpolation between measured sizes, clamping
// below the smallest and linear extrapolation above the largest.
#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

#include "haloflag/model/pack_unpack_table.hpp"

namespace {

using namespace haloflag::model;

constexpr double kUs = 1e-6;

// Table 3 of the paper.
PackUnpackTable table3() {
  return PackUnpackTable({{24, 1.75 * kUs, 5.54 * kUs},
                          {60000, 3.98 * kUs, 12.00 * kUs},
                          {240000, 17.30 * kUs, 30.40 * kUs},
                          {960000, 79.10 * kUs, 105.0 * kUs}});
}

void expect_us(const TableLookup& lookup, double microseconds, TableRange range) {
  EXPECT_NEAR(lookup.seconds / kUs, microseconds, 1e-9);
  EXPECT_EQ(lookup.range, range);
}

TEST(PackUnpackTable, MeasuredSizesAreExact) {
  const PackUnpackTable table = table3();
  expect_us(table.pack_time(24), 1.75, TableRange::inside);
  expect_us(table.unpack_time(24), 5.54, TableRange::inside);
  expect_us(table.pack_time(60000), 3.98, TableRange::inside);
  expect_us(table.unpack_time(240000), 30.40, TableRange::inside);
  expect_us(table.pack_time(960000), 79.10, TableRange::inside);
  expect_us(table.unpack_time(960000), 105.0, TableRange::inside);
}

TEST(PackUnpackTable, InterpolatesLinearlyBetweenSizes) {
  const PackUnpackTable table = table3();
  // 150000 is halfway from 60000 to 240000: 3.98 + 0.5 * (17.30 - 3.98) = 10.64 us.
  expect_us(table.pack_time(150000), 10.64, TableRange::inside);
  // 600000 is halfway from 240000 to 960000: 30.40 + 0.5 * (105 - 30.40) = 67.70 us.
  expect_us(table.unpack_time(600000), 67.70, TableRange::inside);
  // 1200 B: (1200 - 24) / (60000 - 24) = 0.0196078 of the way: 1.75 + 0.0196078 * 2.23 = 1.793725 us.
  expect_us(table.pack_time(1200), 1.75 + (1176.0 / 59976.0) * 2.23, TableRange::inside);
}

TEST(PackUnpackTable, ClampsBelowTheSmallestSize) {
  const PackUnpackTable table = table3();
  expect_us(table.pack_time(8), 1.75, TableRange::below_clamped);
  expect_us(table.unpack_time(1), 5.54, TableRange::below_clamped);
}

TEST(PackUnpackTable, ExtrapolatesAboveTheLargestSize) {
  const PackUnpackTable table = table3();
  // Line through (240000, 17.30) and (960000, 79.10): slope 61.8 / 720000 us/B;
  // at 1920000: 79.10 + 960000 * 61.8 / 720000 = 79.10 + 82.40 = 161.50 us.
  expect_us(table.pack_time(1920000), 161.50, TableRange::above_extrapolated);
  // Unpack: 105 + 960000 * 74.6 / 720000 = 105 + 99.4667 = 204.4667 us.
  expect_us(table.unpack_time(1920000), 105.0 + 960000.0 * 74.6 / 720000.0,
            TableRange::above_extrapolated);
}

TEST(PackUnpackTable, ExtrapolationNeverFallsBelowTheLastTime) {
  const PackUnpackTable table({{100, 5 * kUs, 5 * kUs}, {200, 4 * kUs, 6 * kUs}});
  // The pack line falls (5 -> 4 us); at 400 B it would give 2 us: held at 4 us.
  expect_us(table.pack_time(400), 4.0, TableRange::above_extrapolated);
  expect_us(table.unpack_time(400), 8.0, TableRange::above_extrapolated);
}

TEST(PackUnpackTable, OneSizeIsConstant) {
  const PackUnpackTable table({{1000, 2 * kUs, 3 * kUs}});
  expect_us(table.pack_time(10), 2.0, TableRange::below_clamped);
  expect_us(table.pack_time(1000), 2.0, TableRange::inside);
  expect_us(table.unpack_time(5000), 3.0, TableRange::above_extrapolated);
}

TEST(PackUnpackTable, InvalidTablesAreRejected) {
  EXPECT_THROW(PackUnpackTable(std::vector<PackUnpackPoint>{}), std::invalid_argument);
  EXPECT_THROW(PackUnpackTable({{100, kUs, kUs}, {100, kUs, kUs}}), std::invalid_argument);
  EXPECT_THROW(PackUnpackTable({{200, kUs, kUs}, {100, kUs, kUs}}), std::invalid_argument);
  EXPECT_THROW(PackUnpackTable({{0, kUs, kUs}}), std::invalid_argument);
  EXPECT_THROW(PackUnpackTable({{10, 0.0, kUs}}), std::invalid_argument);
}

}  // namespace
