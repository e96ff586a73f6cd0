// The problem of NVIDIA's multi-GPU Jacobi (multi-gpu-programming-models), decomposed for
// haloflag. A global grid of nx x ny cells; columns 0 and nx-1 are fixed at
// sin(2*pi*iy / (ny-1)); rows 1 .. ny-2 are updated, split in contiguous blocks over the ranks,
// and wrap around (rows 0 and ny-1 are the halo copies of rows ny-2 and 1).
//
// As a halo::Geometry: x holds the nx-2 updated columns, their ghosts being the fixed columns
// (not periodic, one rank); y holds the ny-2 updated rows, periodic, split over the ranks; z is
// one plane with a ghost plane on each side (the Geometry needs a ghost on every axis). Only the
// middle plane is ever read or written, and only the two y faces exchange.
#pragma once

#include <cstdint>

#include "haloflag/examples/problem_error.hpp"
#include "haloflag/halo/geometry.hpp"
#include "precision.hpp"

namespace jacobi2d {

using haloflag::examples::ProblemError;

struct Problem {
  std::int64_t nx = 0;
  std::int64_t ny = 0;
  Precision precision = Precision::float32;
  haloflag::halo::Geometry geometry;

  // Rows `rank` updates, and the global row of its first one (1 .. ny-2).
  std::int64_t rows(int rank) const { return geometry.subdomain(rank).extent[1]; }
  std::int64_t first_row(int rank) const { return geometry.subdomain(rank).offset[1] + 1; }
};

// Throws ProblemError (naming -nx, -ny or the rank count) when nx < 3, ny < 3 or a rank would
// get no row.
Problem make_problem(std::int64_t nx, std::int64_t ny, int ranks, Precision precision);

// The fixed value of columns 0 and nx-1 in global row `iy`.
double boundary_value(std::int64_t iy, std::int64_t ny);

}  // namespace jacobi2d
