// The Jacobi update of whole rows, written once for GPU kernels and host threads. A cell becomes
// the mean of its four neighbours, summed in a fixed order in Real with the scale last, so every
// backend and every decomposition computes bit-identical values.
#pragma once

#include <cstdint>

#include "haloflag/notify/portability.hpp"

namespace jacobi2d {

// One step of one rank's plane: read `in`, write `out`, rows of `nx` cells (ghost rows and the
// fixed columns included).
template <class Real>
struct PlaneStep {
  const Real* in;
  Real* out;
  std::int64_t nx;
};

// Rows of a plane: `count` local rows from `first`, `gap` apart (1: contiguous).
struct RowSet {
  std::int64_t first;
  std::int64_t count;
  std::int64_t gap;
};

// The first and last row of a rank's `rows`: the ones the exchange sends, which read the ghost
// rows. One set, so that one launch updates both.
HF_HD inline RowSet boundary_rows(std::int64_t rows) {
  return rows > 1 ? RowSet{1, 2, rows - 1} : RowSet{1, 1, 1};
}
// The rows between them: they read owned rows only.
HF_HD inline RowSet interior_rows(std::int64_t rows) { return {2, rows > 2 ? rows - 2 : 0, 1}; }

// Columns 1 .. nx-2 of the rows of `set`, shared out among `members`: member m takes cells m,
// m + members, ... (x fastest), so consecutive members touch consecutive cells. Returns the
// member's sum of squared changes when `norm` is set (else 0). The cell index advances by a
// fixed step, so no cell costs a division.
template <class Real>
HF_HD inline double sweep_rows(const PlaneStep<Real>& step, const RowSet& set,
                               std::int64_t member, std::int64_t members, bool norm) {
  const std::int64_t nx = step.nx;
  const std::int64_t cols = nx - 2;
  if (set.count <= 0 || member >= cols * set.count) return 0.0;
  std::int64_t row = member / cols;
  std::int64_t col = member - row * cols;
  const std::int64_t step_rows = members / cols;
  const std::int64_t step_cols = members - step_rows * cols;
  const std::int64_t row_cells = set.gap * nx;
  const std::int64_t step_cells = step_rows * row_cells + step_cols;
  std::int64_t cell = (set.first + row * set.gap) * nx + 1 + col;
  // The two planes never overlap: saying so lets the compiler issue the next cell's loads before
  // this cell's store.
  const Real* __restrict__ in = step.in;
  Real* __restrict__ out = step.out;
  double sum = 0.0;
  while (row < set.count) {
    const Real value = (in[cell + 1] + in[cell - 1] + in[cell + nx] + in[cell - nx]) * Real(0.25);
    out[cell] = value;
    if (norm) {
      const Real change = value - in[cell];
      sum += static_cast<double>(change) * static_cast<double>(change);
    }
    row += step_rows;
    col += step_cols;
    cell += step_cells;
    if (col >= cols) {
      col -= cols;
      ++row;
      cell += row_cells - cols;
    }
  }
  return sum;
}

}  // namespace jacobi2d
