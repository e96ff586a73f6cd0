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

// out = (c + x- + x+ + y- + y+ + z- + z+) / 7, summed in that order.
template <class Real>
HF_HD inline Real seven_point_average(const Real* in, std::int64_t cell, std::int64_t sy,
                                      std::int64_t sz) {
  Real sum = in[cell];
  sum += in[cell - 1];
  sum += in[cell + 1];
  sum += in[cell - sy];
  sum += in[cell + sy];
  sum += in[cell - sz];
  sum += in[cell + sz];
  return sum * (Real(1) / Real(7));
}

// out = sum of the 27 cells of the 3x3x3 cube / 27, z slowest, x fastest.
template <class Real>
HF_HD inline Real twenty_seven_point_average(const Real* in, std::int64_t cell,
                                             std::int64_t sy, std::int64_t sz) {
  Real sum = Real(0);
  for (int dz = -1; dz <= 1; ++dz) {
    for (int dy = -1; dy <= 1; ++dy) {
      const Real* row = in + cell + dz * sz + dy * sy;
      sum += row[-1];
      sum += row[0];
      sum += row[1];
    }
  }
  return sum * (Real(1) / Real(27));
}

template <class Real>
HF_HD inline void update_cell(StencilKind kind, const SweepFields<Real>& fields,
                              std::int64_t cell) {
  fields.out[cell] = kind == StencilKind::seven_point
                         ? seven_point_average(fields.in, cell, fields.stride_y, fields.stride_z)
                         : twenty_seven_point_average(fields.in, cell, fields.stride_y,
                                                      fields.stride_z);
}

}  // namespace jacobi3d
