// The pieces of the example that need no MPI run: the regions the resident kernel sweeps cover
// every owned cell exactly once, the sweeps shared out over any number of members update every
// cell of their boxes exactly once and nothing else, problems that cannot be decomposed are
// refused with a message naming the option, and the precision reaches the geometry and the
// reference.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "box_sweep.hpp"
#include "counted_cell.hpp"
#include "problem.hpp"
#include "reference_solution.hpp"
#include "staged_run.hpp"
#include "sweep_regions.hpp"

namespace {

using namespace jacobi3d;
using haloflag::halo::Index3;

std::vector<int> coverage(const SweepRegions& regions, const Index3& field) {
  std::vector<int> count(static_cast<std::size_t>(field[0] * field[1] * field[2]), 0);
  auto add = [&](const haloflag::kernels::Box& box) {
    for (std::int64_t z = 0; z < box.extent[2]; ++z) {
      for (std::int64_t y = 0; y < box.extent[1]; ++y) {
        for (std::int64_t x = 0; x < box.extent[0]; ++x) {
          const std::int64_t i = ((box.begin[2] + z) * field[1] + box.begin[1] + y) * field[0] +
                                 box.begin[0] + x;
          ++count[static_cast<std::size_t>(i)];
        }
      }
    }
  };
  add(regions.interior);
  for (int b = 0; b < regions.boundary.count; ++b) add(regions.boundary.boxes[b]);
  return count;
}

TEST(SweepRegions, BoundaryAndInteriorCoverOwnedCellsOnce) {
  for (const Index3 owned : {Index3{5, 4, 3}, Index3{2, 2, 2}, Index3{2, 7, 3}, Index3{9, 9, 9}}) {
    const SweepRegions regions = sweep_regions(owned, 1);
    const Index3 field{owned[0] + 2, owned[1] + 2, owned[2] + 2};
    const std::vector<int> count = coverage(regions, field);
    for (std::int64_t z = 0; z < field[2]; ++z) {
      for (std::int64_t y = 0; y < field[1]; ++y) {
        for (std::int64_t x = 0; x < field[0]; ++x) {
          const bool is_owned = x >= 1 && x <= owned[0] && y >= 1 && y <= owned[1] && z >= 1 &&
                                z <= owned[2];
          EXPECT_EQ(count[static_cast<std::size_t>((z * field[1] + y) * field[0] + x)],
                    is_owned ? 1 : 0)
              << "owned " << owned[0] << "x" << owned[1] << "x" << owned[2] << ", cell " << x
              << "," << y << "," << z;
        }
      }
    }
    // The interior never touches a cell next to a ghost.
    for (int axis = 0; axis < 3; ++axis) {
      if (regions.interior.extent[axis] > 0) {
        EXPECT_GE(regions.interior.begin[axis], 2);
      }
    }
  }
}

using counted_cell::Counted;

TEST(BoxSweep, EveryMemberCountCoversEachCellOnce) {
  for (const Index3 owned :
       {Index3{13, 7, 5}, Index3{2, 2, 2}, Index3{40, 3, 2}, Index3{2, 9, 4}, Index3{70, 19, 3}}) {
    const Index3 field{owned[0] + 2, owned[1] + 2, owned[2] + 2};
    const SweepRegions regions = sweep_regions(owned, 1);
    // Multiples of 256 take sweep_box_in_tiles' tiles, the others its fallback.
    for (const std::int64_t members : {1, 2, 3, 5, 32, 33, 64, 96, 256, 768, 4096}) {
      for (const StencilKind stencil :
           {StencilKind::seven_point, StencilKind::twenty_seven_point}) {
        std::vector<Counted> in(static_cast<std::size_t>(field[0] * field[1] * field[2]));
        std::vector<Counted> out(in.size());
        const SweepFields<Counted> fields{in.data(), out.data(), field[0], field[0] * field[1]};
        for (std::int64_t m = 0; m < members; ++m) {
          sweep_box_in_tiles(stencil, fields, regions.interior, m, members);
          sweep_boxes(stencil, fields, regions.boundary.boxes, regions.boundary.count, m,
                      members);
        }
        std::vector<Counted> whole(in.size());
        const SweepFields<Counted> owned_fields{in.data(), whole.data(), field[0],
                                                field[0] * field[1]};
        for (std::int64_t m = 0; m < members; ++m) {
          sweep_box(stencil, owned_fields, regions.owned, m, members);
        }
        for (std::int64_t z = 0; z < field[2]; ++z) {
          for (std::int64_t y = 0; y < field[1]; ++y) {
            for (std::int64_t x = 0; x < field[0]; ++x) {
              const bool is_owned = x >= 1 && x <= owned[0] && y >= 1 && y <= owned[1] &&
                                    z >= 1 && z <= owned[2];
              const auto i = static_cast<std::size_t>((z * field[1] + y) * field[0] + x);
              EXPECT_EQ(out[i].writes, is_owned ? 1 : 0)
                  << "regions, owned " << owned[0] << "x" << owned[1] << "x" << owned[2] << ", "
                  << members << " members, cell " << x << "," << y << "," << z;
              EXPECT_EQ(whole[i].writes, is_owned ? 1 : 0)
                  << "owned box, owned " << owned[0] << "x" << owned[1] << "x" << owned[2]
                  << ", " << members << " members, cell " << x << "," << y << "," << z;
            }
          }
        }
      }
    }
  }
}

// A field of distinct, irregular values, so that any other order of the sums rounds differently.
template <class Real>
std::vector<Real> irregular_field(const Index3& field) {
  std::vector<Real> values(static_cast<std::size_t>(field[0] * field[1] * field[2]));
  for (std::size_t i = 0; i < values.size(); ++i) {
    const auto at = static_cast<double>(i);
    values[i] = static_cast<Real>(std::sin(0.37 * at) * 1e3 + 1.0 / (1.0 + at));
  }
  return values;
}

// The column walks (update_column, and sweep_box_in_tiles over a GPU-sized grid of members, whose
// runs go up to kMaxColumnRun planes) compute every cell bit for bit as update_cell does.
template <class Real>
void expect_columns_match_cells() {
  const Index3 owned{37, 11, 40};
  const Index3 field{owned[0] + 2, owned[1] + 2, owned[2] + 2};
  const std::vector<Real> in = irregular_field<Real>(field);
  const haloflag::kernels::Box box{{1, 1, 1}, {owned[0], owned[1], owned[2]}};
  for (const StencilKind stencil : {StencilKind::seven_point, StencilKind::twenty_seven_point}) {
    std::vector<Real> by_cell(in.size(), Real(0));
    const SweepFields<Real> cells{in.data(), by_cell.data(), field[0], field[0] * field[1]};
    sweep_box(stencil, cells, box, 0, 1);
    for (const std::int64_t members : {256, 512, 2048}) {
      std::vector<Real> by_column(in.size(), Real(0));
      const SweepFields<Real> columns{in.data(), by_column.data(), field[0], field[0] * field[1]};
      for (std::int64_t m = 0; m < members; ++m) {
        sweep_box_in_tiles(stencil, columns, box, m, members);
      }
      for (std::size_t i = 0; i < in.size(); ++i) {
        ASSERT_EQ(by_column[i], by_cell[i]) << members << " members, element " << i;
      }
    }
    std::vector<Real> walked(in.size(), Real(0));
    const SweepFields<Real> walk{in.data(), walked.data(), field[0], field[0] * field[1]};
    for (std::int64_t y = 1; y <= owned[1]; ++y) {
      for (std::int64_t x = 1; x <= owned[0]; ++x) {
        update_column(stencil, walk, field[0] * field[1] + y * field[0] + x, owned[2]);
      }
    }
    EXPECT_EQ(walked, by_cell);
  }
}

TEST(BoxSweep, ColumnWalksMatchTheCellUpdateBitForBit) {
  expect_columns_match_cells<double>();
  expect_columns_match_cells<float>();
}

// The column runs: one plane where that leaves no group idle and longer runs would not, the
// longest where the planes are many, and never a run that leaves some groups a round more.
TEST(BoxSweep, ColumnRunFitsTheGroups) {
  EXPECT_EQ(column_run(64, 126, 528), 16u);   // 126^3 over 528 groups: one round of 16 planes
  EXPECT_EQ(column_run(64, 256, 64), 16u);    // many rounds either way: the longest run
  EXPECT_EQ(column_run(1, 3, 1), 4u);         // one group: one run covers the column
  EXPECT_EQ(column_run(1000, 4, 4000), 1u);   // a plane each fills every group in one round
  EXPECT_EQ(column_run(4, 30, 106), 2u);      // 30^3 over 106 groups: 2 planes, one round
  // The staged walk's longer runs (kStagedMaxRun): 254 planes of 256 tiles over 528 blocks take
  // 2 rounds of 64, where runs of at most 16 take 8; at 126^3 over 264 blocks, one round of 32.
  EXPECT_EQ(column_run(256, 254, 528, 64), 64u);
  EXPECT_EQ(column_run(256, 254, 528), 16u);
  EXPECT_EQ(column_run(64, 126, 264, 64), 32u);
}

// The staged walk's kernel runs where its runs come out at 32 planes or more: 254^3 and 126^3
// interiors on the default grids, not 126^3 over all 528 blocks (runs of 16), nor the small
// sizes, nor blocks of another size.
TEST(StagedWalk, PaysOnlyForLongRuns) {
  const auto interior = [](std::int64_t n) {
    return haloflag::kernels::Box{{1, 1, 1}, {n, n, n}};
  };
  EXPECT_TRUE(staged_walk_pays(interior(254), 528, 256));
  EXPECT_TRUE(staged_walk_pays(interior(126), 264, 256));
  EXPECT_FALSE(staged_walk_pays(interior(126), 528, 256));
  EXPECT_FALSE(staged_walk_pays(interior(62), 132, 256));
  EXPECT_FALSE(staged_walk_pays(interior(30), 128, 256));
  EXPECT_FALSE(staged_walk_pays(interior(254), 264, 512));
}

// The runs the staged kernel sweeps are the long ones where it pays, and none where it does not.
TEST(StagedWalk, RunsAreTheLongOnesOrNone) {
  const haloflag::kernels::Box interior{{1, 1, 1}, {126, 126, 126}};
  const ColumnRuns runs = staged_runs(interior, 264, 256);
  EXPECT_EQ(runs.run, 32u);
  EXPECT_EQ(runs.tiles(), 64u);
  EXPECT_EQ(runs.count(), 256u);
  EXPECT_EQ(staged_runs(interior, 528, 256).run, 0u);
  EXPECT_EQ(staged_runs(interior, 264, 512).count(), 0u);
}

std::string problem_error(SizeKind kind, const Index3& size, int ranks) {
  try {
    (void)make_problem(StencilKind::seven_point, kind, size, ranks);
  } catch (const ProblemError& error) {
    return error.what();
  }
  return "";
}

TEST(Problem, RefusesSizesThatDoNotDivide) {
  const std::string message = problem_error(SizeKind::global, {15, 15, 15}, 2);
  EXPECT_NE(message.find("--size 15,15,15 is not divisible"), std::string::npos) << message;
}

TEST(Problem, RefusesGridsTooSmallForTheGhostWidth) {
  const std::string message = problem_error(SizeKind::global, {2, 2, 2}, 2);
  EXPECT_NE(message.find("needs at least 2"), std::string::npos) << message;
  const std::string local = problem_error(SizeKind::per_rank, {1, 8, 8}, 1);
  EXPECT_NE(local.find("--local"), std::string::npos) << local;
}

TEST(Problem, RefusesFieldsPast32BitIndices) {
  // 2048 x 2048 x 1023 owned cells are 2050 x 2050 x 1025 with ghosts: over 2^32.
  const auto limit_error = [](const Index3& size) -> std::string {
    const Problem problem = make_problem(StencilKind::seven_point, SizeKind::per_rank, size, 1);
    try {
      refuse_fields_past_32_bits(problem, SizeKind::per_rank, size);
    } catch (const ProblemError& error) {
      return error.what();
    }
    return "";
  };
  const std::string message = limit_error({2048, 2048, 1023});
  EXPECT_NE(message.find("--local 2048,2048,1023 over 1 ranks leaves each rank a field of "
                         "4307562500 cells"),
            std::string::npos)
      << message;
  EXPECT_EQ(limit_error({2048, 2048, 1018}), "");  // 2050^2 x 1020
}

TEST(Problem, PerRankSizeIsKeptOnEveryRank) {
  const Problem problem = make_problem(StencilKind::twenty_seven_point, SizeKind::per_rank,
                                       {6, 5, 4}, 4);
  for (int rank = 0; rank < 4; ++rank) {
    EXPECT_EQ(problem.geometry.subdomain(rank).extent, (Index3{6, 5, 4}));
  }
  EXPECT_EQ(problem.geometry.neighbours(0).size(), 26u);
}

TEST(Precision, SetsTheGeometrysElementSize) {
  EXPECT_EQ(make_problem(StencilKind::seven_point, SizeKind::global, {4, 4, 4}, 1)
                .geometry.spec().element_bytes,
            8);
  const Problem single = make_problem(StencilKind::seven_point, SizeKind::global, {4, 4, 4}, 1,
                                      Precision::float32);
  EXPECT_EQ(single.precision, Precision::float32);
  EXPECT_EQ(single.geometry.spec().element_bytes, 4);
}

// The float reference is computed in float: every value is a float (not a double rounded at
// the end), and it differs from the double reference.
TEST(Precision, FloatReferenceIsComputedInFloat) {
  for (const StencilKind stencil : {StencilKind::seven_point, StencilKind::twenty_seven_point}) {
    const Index3 size{6, 5, 4};
    const auto in_float = reference_solution(stencil, Precision::float32, size, 5);
    const auto in_double = reference_solution(stencil, Precision::float64, size, 5);
    const double* f = in_float.variable(0);
    const double* d = in_double.variable(0);
    std::int64_t differing = 0;
    for (std::int64_t i = 0; i < in_float.cells(); ++i) {
      EXPECT_EQ(f[i], static_cast<double>(static_cast<float>(f[i]))) << "cell " << i;
      differing += f[i] != d[i] ? 1 : 0;
    }
    EXPECT_GT(differing, in_float.cells() / 2) << stencil_points(stencil) << " points";
  }
}

}  // namespace
