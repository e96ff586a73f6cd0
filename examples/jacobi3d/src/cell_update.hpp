// The Jacobi update of one cell, written once for host loops and GPU kernels. The sum runs in a
// fixed order and the scale comes last (no multiply-add a compiler could fuse), so every
// backend and every decomposition computes bit-identical values.
#pragma once

#include <cstdint>

#include "haloflag/notify/portability.hpp"
#include "stencil_kind.hpp"

namespace jacobi3d {

// One step of one field: read `in`, write `out`; both have the same extent (ghosts included,
// x fastest) and so the same strides.
struct SweepFields {
  const double* in;
  double* out;
  std::int64_t stride_y;  // elements between (x, y, z) and (x, y+1, z)
  std::int64_t stride_z;  // elements between (x, y, z) and (x, y, z+1)
};

// out = (c + x- + x+ + y- + y+ + z- + z+) / 7, summed in that order.
HF_HD inline double seven_point_average(const double* in, std::int64_t cell, std::int64_t sy,
                                        std::int64_t sz) {
  double sum = in[cell];
  sum += in[cell - 1];
  sum += in[cell + 1];
  sum += in[cell - sy];
  sum += in[cell + sy];
  sum += in[cell - sz];
  sum += in[cell + sz];
  return sum * (1.0 / 7.0);
}

// out = sum of the 27 cells of the 3x3x3 cube / 27, z slowest, x fastest.
HF_HD inline double twenty_seven_point_average(const double* in, std::int64_t cell,
                                               std::int64_t sy, std::int64_t sz) {
  double sum = 0.0;
  for (int dz = -1; dz <= 1; ++dz) {
    for (int dy = -1; dy <= 1; ++dy) {
      const double* row = in + cell + dz * sz + dy * sy;
      sum += row[-1];
      sum += row[0];
      sum += row[1];
    }
  }
  return sum * (1.0 / 27.0);
}

HF_HD inline void update_cell(StencilKind kind, const SweepFields& fields, std::int64_t cell) {
  fields.out[cell] = kind == StencilKind::seven_point
                         ? seven_point_average(fields.in, cell, fields.stride_y, fields.stride_z)
                         : twenty_seven_point_average(fields.in, cell, fields.stride_y,
                                                      fields.stride_z);
}

}  // namespace jacobi3d
