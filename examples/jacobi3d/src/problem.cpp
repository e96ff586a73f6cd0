#include "problem.hpp"

#include <cstdint>
#include <string>

#include "haloflag/halo/errors.hpp"
#include "haloflag/halo/rank_grid.hpp"

namespace jacobi3d {

namespace {

namespace hh = haloflag::halo;

std::string option_name(SizeKind kind) { return kind == SizeKind::global ? "--size" : "--local"; }

// The rank grid for a global size, or for a per-rank size (the grid a cube of ranks-times-that
// size would get, so weak scaling keeps every rank's part as given).
hh::RankGrid choose_rank_grid(SizeKind kind, const hh::Index3& size, int ranks) {
  hh::Index3 guide = size;
  if (kind == SizeKind::per_rank) {
    for (auto& cells : guide) cells *= ranks;
  }
  try {
    return hh::auto_divide(ranks, guide);
  } catch (const hh::GeometryError& error) {
    throw ProblemError(option_name(kind) + " " + hh::format_triple(size) + " over " +
                       std::to_string(ranks) + " ranks: " + error.what());
  }
}

}  // namespace

Problem make_problem(StencilKind stencil, SizeKind kind, const hh::Index3& size, int ranks,
                     Precision precision) {
  for (int axis = 0; axis < 3; ++axis) {
    if (size[axis] <= 0) {
      throw ProblemError(option_name(kind) + " " + hh::format_triple(size) +
                         ": every size must be positive");
    }
  }
  if (ranks <= 0) throw ProblemError("the number of ranks must be positive");
  const hh::RankGrid grid = choose_rank_grid(kind, size, ranks);

  hh::GeometrySpec spec;
  for (int axis = 0; axis < 3; ++axis) {
    spec.global_size[axis] = kind == SizeKind::global ? size[axis] : size[axis] * grid[axis];
    if (spec.global_size[axis] % grid[axis] != 0) {
      throw ProblemError(option_name(kind) + " " + hh::format_triple(size) +
                         " is not divisible by the rank grid " + hh::format_triple(grid, 'x') +
                         " of " + std::to_string(ranks) + " ranks: " +
                         std::to_string(spec.global_size[axis]) + " cells along " +
                         hh::kAxisNames[axis] + " over " + std::to_string(grid[axis]) + " ranks");
    }
    const std::int64_t owned = spec.global_size[axis] / grid[axis];
    if (owned < 2 * kGhostWidth) {
      throw ProblemError(option_name(kind) + " " + hh::format_triple(size) + " over " +
                         std::to_string(ranks) + " ranks (rank grid " +
                         hh::format_triple(grid, 'x') + ") leaves " + std::to_string(owned) +
                         " cell(s) per rank along " + hh::kAxisNames[axis] +
                         "; ghost width " + std::to_string(kGhostWidth) +
                         " needs at least " + std::to_string(2 * kGhostWidth));
    }
  }
  spec.ranks = ranks;
  spec.divide = grid;
  spec.periodic = {true, true, true};
  spec.ghost = {kGhostWidth, kGhostWidth, kGhostWidth};
  spec.vars = 1;
  spec.element_bytes = element_bytes(precision);
  spec.stencil = halo_stencil(stencil);
  try {
    return Problem{stencil, hh::Geometry(spec), precision};
  } catch (const hh::GeometryError& error) {
    throw ProblemError(option_name(kind) + " " + hh::format_triple(size) + ": " + error.what());
  }
}

void refuse_fields_past_32_bits(const Problem& problem, SizeKind kind, const hh::Index3& size) {
  const hh::Index3 extent = problem.geometry.subdomain(0).field_extent;
  const std::int64_t cells = extent[0] * extent[1] * extent[2];
  if (cells >= (std::int64_t{1} << 32)) {
    throw ProblemError(option_name(kind) + " " + hh::format_triple(size) + " over " +
                       std::to_string(problem.geometry.ranks()) +
                       " ranks leaves each rank a field of " + std::to_string(cells) +
                       " cells (ghosts included); the sweeps index at most 2^32 - 1: "
                       "use more ranks or a smaller size");
  }
}

}  // namespace jacobi3d
