// The decomposed problem: the global periodic grid split over the ranks, ghost width 1, one
// variable of float or double, and the stencil (which decides whether 6 or 26 neighbours
// exchange halos).
#pragma once

#include "haloflag/examples/problem_error.hpp"
#include "haloflag/halo/geometry.hpp"
#include "haloflag/halo/index3.hpp"
#include "precision.hpp"
#include "stencil_kind.hpp"

namespace jacobi3d {

using haloflag::examples::ProblemError;

// How the size was given: the whole grid (strong scaling) or each rank's part (weak scaling).
enum class SizeKind { global, per_rank };

struct Problem {
  StencilKind stencil;
  haloflag::halo::Geometry geometry;  // periodic on every axis, ghost 1, 1 variable
  Precision precision = Precision::float64;  // the field's element type (geometry's element_bytes)
};

inline constexpr std::int64_t kGhostWidth = 1;

// Splits the grid over `ranks` (the most cubic rank grid, halo::auto_divide). The global size
// must divide evenly, and every rank must own at least 2 ghost widths per axis (a boundary
// layer on each side); otherwise throws ProblemError naming the option (--size or --local).
Problem make_problem(StencilKind stencil, SizeKind kind, const haloflag::halo::Index3& size,
                     int ranks, Precision precision = Precision::float64);

}  // namespace jacobi3d
