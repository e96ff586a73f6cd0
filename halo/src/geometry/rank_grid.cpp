#include "haloflag/halo/rank_grid.hpp"

#include <cstdint>
#include <limits>
#include <string>

#include "haloflag/halo/errors.hpp"

namespace haloflag::halo {

namespace {

std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

// Surface of the largest subdomain: proportional to the halo it exchanges.
std::int64_t largest_subdomain_surface(const RankGrid& grid, const Index3& size) {
  const std::int64_t sx = ceil_div(size[0], grid[0]);
  const std::int64_t sy = ceil_div(size[1], grid[1]);
  const std::int64_t sz = ceil_div(size[2], grid[2]);
  return sx * sy + sy * sz + sz * sx;
}

}  // namespace

RankGrid auto_divide(int ranks, const Index3& global_size) {
  if (ranks <= 0) {
    throw GeometryError("cannot divide the domain among " + std::to_string(ranks) +
                        " ranks: the number of ranks must be positive");
  }
  for (int axis = 0; axis < 3; ++axis) {
    if (global_size[axis] <= 0) {
      throw GeometryError(std::string("cannot divide a domain of size ") +
                          format_triple(global_size) + ": the size along " + kAxisNames[axis] +
                          " must be positive");
    }
  }

  RankGrid best{0, 0, 0};
  std::int64_t best_surface = std::numeric_limits<std::int64_t>::max();
  for (int px = 1; px <= ranks; ++px) {
    if (ranks % px != 0) continue;
    const int rest = ranks / px;
    for (int py = 1; py <= rest; ++py) {
      if (rest % py != 0) continue;
      const RankGrid grid{px, py, rest / py};
      bool every_rank_has_cells = true;
      for (int axis = 0; axis < 3; ++axis) {
        if (grid[axis] > global_size[axis]) every_rank_has_cells = false;
      }
      if (!every_rank_has_cells) continue;
      const std::int64_t surface = largest_subdomain_surface(grid, global_size);
      // Iteration is in increasing (px, py), so "<=" lets later, larger grids win ties.
      if (surface <= best_surface) {
        best_surface = surface;
        best = grid;
      }
    }
  }
  if (best[0] == 0) {
    throw GeometryError("cannot divide a domain of " + format_triple(global_size, 'x') +
                        " cells among " + std::to_string(ranks) +
                        " ranks so that every rank owns at least one cell");
  }
  return best;
}

}  // namespace haloflag::halo
