// The Jacobi update of one cell, written once for host loops and GPU kernels and for either
// element type (Real: float or double, precision.hpp). The sum runs in a fixed order, in Real,
// and the scale comes last (no multiply-add a compiler could fuse), so every backend and every
// decomposition computes bit-identical values in either precision.
#pragma once

#include <cstdint>

#include "haloflag/notify/portability.hpp"
#include "stencil_kind.hpp"

namespace jacobi3d {

// One step of one field: read `in`, write `out`; both have the same extent (ghosts included,
// x fastest) and so the same strides.
template <class Real>
struct SweepFields {
  const Real* in;
  Real* out;
  std::int64_t stride_y;  // elements between (x, y, z) and (x, y+1, z)
  std::int64_t stride_z;  // elements between (x, y, z) and (x, y, z+1)
};

// out = (c + x- + x+ + y- + y+ + z- + z+) / 7, summed in that order; `center`, `below` (z-) and
// `above` (z+) come from the caller, which may hold them from the plane before (update_column).
// Index as in plane_sum.
template <class Real, class Index = std::int64_t>
HF_HD inline Real seven_point_mean(Real center, Real below, Real above, const Real* in,
                                   Index cell, Index sy) {
  Real sum = center;
  sum += in[cell - 1];
  sum += in[cell + 1];
  sum += in[cell - sy];
  sum += in[cell + sy];
  sum += below;
  sum += above;
  return sum * (Real(1) / Real(7));
}

template <class Real>
HF_HD inline Real seven_point_average(const Real* in, std::int64_t cell, std::int64_t sy,
                                      std::int64_t sz) {
  return seven_point_mean(in[cell], in[cell - sz], in[cell + sz], in, cell, sy);
}

// The sum of the 3 x 3 cells of one x-y plane around `cell`, y slowest, x fastest. Index: the
// staged walk (staged_run.hpp) reads its shared-memory planes by 32-bit index.
template <class Real, class Index = std::int64_t>
HF_HD inline Real plane_sum(const Real* in, Index cell, Index sy) {
  const Real* row = in + cell - sy;
  Real sum = row[-1];
  sum += row[0];
  sum += row[1];
  for (int dy = 0; dy < 2; ++dy) {
    row += sy;
    sum += row[-1];
    sum += row[0];
    sum += row[1];
  }
  return sum;
}

// out = (P(z-1) + P(z) + P(z+1)) / 27, P the plane sums: summed plane by plane, so that a walk
// up a column computes each plane's sum once and uses it for three cells (update_column).
template <class Real>
HF_HD inline Real mean_of_planes(Real below, Real center, Real above) {
  Real sum = below;
  sum += center;
  sum += above;
  return sum * (Real(1) / Real(27));
}

template <class Real>
HF_HD inline Real twenty_seven_point_average(const Real* in, std::int64_t cell,
                                             std::int64_t sy, std::int64_t sz) {
  return mean_of_planes(plane_sum(in, cell - sz, sy), plane_sum(in, cell, sy),
                        plane_sum(in, cell + sz, sy));
}

// Returns the new value, which a send that updates its cells then moves without loading it
// back (resident_iterations.hpp).
template <class Real>
HF_HD inline Real update_cell(StencilKind kind, const SweepFields<Real>& fields,
                              std::int64_t cell) {
  const Real value =
      kind == StencilKind::seven_point
          ? seven_point_average(fields.in, cell, fields.stride_y, fields.stride_z)
          : twenty_seven_point_average(fields.in, cell, fields.stride_y, fields.stride_z);
  fields.out[cell] = value;
  return value;
}

// update_cell for `planes` (>= 1) cells up the z axis from `cell`, with the same values: each
// plane's centre (7 points) or plane sum (27 points) is loaded or summed once and kept for the
// cells above, so a cell costs 5 loads instead of 7, or 9 instead of 27.
template <class Real>
HF_HD inline void update_column(StencilKind kind, const SweepFields<Real>& fields,
                                std::int64_t cell, std::int64_t planes) {
  // A run of one plane loads every neighbour at once, as update_cell does; the walk below
  // would wait for its first two planes before it loads the third.
  if (planes == 1) {
    update_cell(kind, fields, cell);
    return;
  }
  // The two fields never overlap: saying so lets a compiler load the next plane before it
  // stores this one.
  const Real* __restrict__ in = fields.in;
  Real* __restrict__ out = fields.out;
  const std::int64_t sy = fields.stride_y;
  const std::int64_t sz = fields.stride_z;
  if (kind == StencilKind::seven_point) {
    Real below = in[cell - sz];
    Real center = in[cell];
    for (std::int64_t p = 0; p < planes; ++p, cell += sz) {
      const Real above = in[cell + sz];
      out[cell] = seven_point_mean(center, below, above, in, cell, sy);
      below = center;
      center = above;
    }
    return;
  }
  Real below = plane_sum(in, cell - sz, sy);
  Real center = plane_sum(in, cell, sy);
  for (std::int64_t p = 0; p < planes; ++p, cell += sz) {
    const Real above = plane_sum(in, cell + sz, sy);
    out[cell] = mean_of_planes(below, center, above);
    below = center;
    center = above;
  }
}

}  // namespace jacobi3d
