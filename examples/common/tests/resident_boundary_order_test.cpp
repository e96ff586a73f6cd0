// sends_update_boundary: Jacobi3D's ranks against the resident grids the default sizes on an
// H200 (resident_grid_size.hpp), at the sizes measured in
// docs/results/h200x2/2026-11-30_sends_update and, the interior taken from a counter, in
// docs/results/h200x2/2026-11-30_interior_by_counter.
#include <gtest/gtest.h>

#include <cstdint>

#include "haloflag/examples/resident_boundary_order.hpp"

namespace {

using haloflag::examples::kSendsUpdateUpToCellsPerThread;
using haloflag::examples::sends_update_boundary;

constexpr std::int64_t cube(std::int64_t side) { return side * side * side; }

TEST(ResidentBoundaryOrder, SendsUpdateWhereEachThreadHasFewCells) {
  EXPECT_TRUE(sends_update_boundary(cube(32), 128 * 256, false));
  EXPECT_TRUE(sends_update_boundary(cube(64), 132 * 256, false));
  EXPECT_TRUE(sends_update_boundary(cube(128), 264 * 256, false));  // 31 cells a thread
}

TEST(ResidentBoundaryOrder, BoundaryFirstWhereEachThreadHasAWholeColumn) {
  EXPECT_FALSE(sends_update_boundary(cube(256), 528 * 256, false));  // 124 cells a thread
  EXPECT_FALSE(sends_update_boundary(cube(128), 2, false));  // the host backend's team of two
}

TEST(ResidentBoundaryOrder, TheLimitItselfStillSendsUpdate) {
  EXPECT_TRUE(sends_update_boundary(kSendsUpdateUpToCellsPerThread * 1000, 1000, false));
  EXPECT_FALSE(sends_update_boundary(kSendsUpdateUpToCellsPerThread * 1000 + 1, 1000, false));
  EXPECT_FALSE(sends_update_boundary(1, 0, false));
}

TEST(ResidentBoundaryOrder, SendsUpdateAtEverySizeWhereTheInteriorIsTaken) {
  EXPECT_TRUE(sends_update_boundary(cube(256), 528 * 256, true));
  EXPECT_TRUE(sends_update_boundary(cube(32), 128 * 256, true));
  EXPECT_FALSE(sends_update_boundary(1, 0, true));  // no grid
}

}  // namespace
