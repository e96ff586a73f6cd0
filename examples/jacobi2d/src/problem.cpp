#include "problem.hpp"

#include <cmath>
#include <numbers>
#include <string>

#include "haloflag/halo/errors.hpp"

namespace jacobi2d {

namespace hh = haloflag::halo;

Problem make_problem(std::int64_t nx, std::int64_t ny, int ranks, Precision precision) {
  if (nx < 3) throw ProblemError("-nx " + std::to_string(nx) + ": needs at least 3 columns");
  if (ny < 3) throw ProblemError("-ny " + std::to_string(ny) + ": needs at least 3 rows");
  if (ranks <= 0) throw ProblemError("the number of ranks must be positive");
  if (ny - 2 < ranks) {
    throw ProblemError("-ny " + std::to_string(ny) + " leaves " + std::to_string(ny - 2) +
                       " rows to update, fewer than the " + std::to_string(ranks) +
                       " ranks: every rank needs one");
  }
  hh::GeometrySpec spec;
  spec.global_size = {nx - 2, ny - 2, 1};
  spec.ranks = ranks;
  spec.divide = hh::RankGrid{1, ranks, 1};
  spec.periodic = {false, true, false};
  spec.ghost = {1, 1, 1};
  spec.vars = 1;
  spec.element_bytes = element_bytes(precision);
  spec.stencil = hh::Stencil::faces6;
  try {
    return Problem{nx, ny, precision, hh::Geometry(spec)};
  } catch (const hh::GeometryError& error) {
    throw ProblemError("-nx " + std::to_string(nx) + " -ny " + std::to_string(ny) + " over " +
                       std::to_string(ranks) + " ranks: " + error.what());
  }
}

double boundary_value(std::int64_t iy, std::int64_t ny) {
  return std::sin(2.0 * std::numbers::pi * static_cast<double>(iy) / static_cast<double>(ny - 1));
}

}  // namespace jacobi2d
