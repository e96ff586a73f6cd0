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

// The sweeps index a rank's field, ghost cells included, in 32 bits (box_sweep.hpp): a GPU
// divides 64-bit numbers in software, at a cost a memory-bound update feels. Throws
// ProblemError, naming the option and the cells, for a field of 2^32 cells or more rather than
// sweep it wrong. Apart from make_problem so that a size too large for memory as well is
// refused for its memory first, the limit every machine meets.
void refuse_fields_past_32_bits(const Problem& problem, SizeKind kind,
                                const haloflag::halo::Index3& size);

}  // namespace jacobi3d
