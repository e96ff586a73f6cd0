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

// Most contiguous rows one member walks down a column (sweep_rows).
inline constexpr std::int64_t kMaxRowRun = 32;

// The rows an item walks down: the fewest that give every item to the members in one round, at
// most kMaxRowRun (then the longest, in as few rounds as they take), and 1 where the rows are
// `gap` apart (they share nothing to keep). `units`: the items of one row (cells or groups).
// Runs one row shorter than that leave a second round to some members, which then walk about
// twice as many rows as the rest while the others wait at the next barrier.
HF_HD inline std::int64_t row_run(std::int64_t units, const RowSet& set, std::int64_t members) {
  if (set.gap != 1) return 1;
  // A rank's rows and a grid's members are far fewer than 2^32: 32-bit division, which GPUs do
  // fast.
  const auto runs_a_column =
      static_cast<std::uint32_t>(members) / static_cast<std::uint32_t>(units);
  if (runs_a_column == 0) return kMaxRowRun;
  const auto count = static_cast<std::uint32_t>(set.count);
  const std::int64_t run = (count + runs_a_column - 1) / runs_a_column;
  return run > kMaxRowRun ? kMaxRowRun : run;
}

// How a sweep cuts a set of rows: the rows an item walks down (row_run) and the items they make.
struct SweepCut {
  std::int64_t run;
  std::int64_t items;
};

// The cut of `set`'s rows, `units` items a row, among `members`; `set` holds a row or more.
HF_HD inline SweepCut sweep_cut(std::int64_t units, const RowSet& set, std::int64_t members) {
  const std::int64_t run = row_run(units, set, members);
  // 32-bit division, as row_run's: a 64-bit one is a long routine on GPUs, and every member
  // of a grid does this at the start of each sweep.
  const auto count = static_cast<std::uint32_t>(set.count);
  const std::uint32_t runs = (count + static_cast<std::uint32_t>(run) - 1) /
                             static_cast<std::uint32_t>(run);
  return {run, units * runs};
}

// A cell's new value: the mean of its four neighbours, summed in this order, the scale last.
template <class Real>
HF_HD inline Real four_point_mean(Real right, Real left, Real below, Real above) {
  return (right + left + below + above) * Real(0.25);
}

// Adds the square of a cell's change to a member's norm sum.
template <class Real>
HF_HD inline void add_change(double& sum, Real value, Real old) {
  const Real change = value - old;
  sum += static_cast<double>(change) * static_cast<double>(change);
}

// One cell of a step, `cell` counted from the plane's start, as the sweeps compute it: the
// resident kernel's sends update the cells they send with it (resident_steps.hpp). Adds the
// square of its change to `sum` when `norm` is set. Returns the new value, which the send then
// moves without loading it back.
template <class Real>
HF_HD inline Real update_cell(const PlaneStep<Real>& step, std::int64_t cell, bool norm,
                              double& sum) {
  const std::int64_t nx = step.nx;
  const Real value =
      four_point_mean(step.in[cell + 1], step.in[cell - 1], step.in[cell + nx], step.in[cell - nx]);
  step.out[cell] = value;
  if (norm) add_change(sum, value, step.in[cell]);
  return value;
}

// Columns 1 .. nx-2 of the rows of `set`, cell by cell, shared out among `members`. The work is
// cut into items of one column and a run of up to kMaxRowRun contiguous rows (row_run: as few
// as one round of the members takes); member m takes items m, m + members, ... (a column
// fastest), so consecutive members read consecutive cells. Walking down a column keeps the row
// above and the cell itself in registers: each cell then loads the row below and its two
// neighbours in its row (cached), and every byte of the plane comes from memory about once.
// Returns the member's sum of squared changes when `norm` is set (else 0).
template <class Real>
HF_HD inline double sweep_rows_by_cell(const PlaneStep<Real>& step, const RowSet& set,
                                       std::int64_t member, std::int64_t members, bool norm) {
  const std::int64_t nx = step.nx;
  const std::int64_t cols = nx - 2;
  if (set.count <= 0) return 0.0;
  const auto [run, items] = sweep_cut(cols, set, members);
  // The two planes never overlap: saying so lets the compiler issue later loads before earlier
  // stores.
  const Real* __restrict__ in = step.in;
  Real* __restrict__ out = step.out;
  double sum = 0.0;
  for (std::int64_t item = member; item < items; item += members) {
    // A rank's plane holds far fewer than 2^32 cells: 32-bit division, which GPUs do fast.
    const std::uint32_t chunk = static_cast<std::uint32_t>(item) / static_cast<std::uint32_t>(cols);
    const std::int64_t col = item - static_cast<std::int64_t>(chunk) * cols;
    const std::int64_t first = static_cast<std::int64_t>(chunk) * run;
    const std::int64_t rows = set.count - first < run ? set.count - first : run;
    std::int64_t cell = (set.first + first * set.gap) * nx + 1 + col;
    Real up = in[cell - nx];
    Real center = in[cell];
#if HF_DEVICE_CODE
#pragma unroll 4
#endif
    for (std::int64_t r = 0; r < rows; ++r) {
      const Real down = in[cell + nx];
      const Real value = four_point_mean(in[cell + 1], in[cell - 1], down, up);
      out[cell] = value;
      if (norm) add_change(sum, value, center);
      up = center;  // a run longer than one row has gap 1
      center = down;
      cell += nx;
    }
  }
  return sum;
}

// Cells of one 16-byte access: 4 floats or 2 doubles.
template <class Real>
inline constexpr int kLanes = 16 / static_cast<int>(sizeof(Real));

// A group of kLanes cells, moved in one 16-byte access.
template <class Real>
struct alignas(16) Lanes {
  Real v[kLanes<Real>];
};

// Stores a group in one 16-byte access. Copied as a Lanes (or a float4), a group whose lanes
// were computed apart went out as four 4-byte stores in the unrolled walk: four times the store
// requests for the same bytes. No memory clobber: the walk's next loads may still go first.
template <class Real>
HF_HD inline void store_group(Real* to, const Lanes<Real>& group) {
#if HF_DEVICE_CODE && !HF_HIP_DEVICE_CODE
  if constexpr (kLanes<Real> == 4) {
    asm volatile("st.global.v4.f32 [%0], {%1, %2, %3, %4};" ::"l"(to), "f"(group.v[0]),
                 "f"(group.v[1]), "f"(group.v[2]), "f"(group.v[3]));
  } else {
    asm volatile("st.global.v2.f64 [%0], {%1, %2};" ::"l"(to), "d"(group.v[0]), "d"(group.v[1]));
  }
#else
  *reinterpret_cast<Lanes<Real>*>(to) = group;
#endif
}

// Whether the rows can be moved in aligned groups: rows a whole number of groups long, both
// planes 16-byte aligned.
template <class Real>
HF_HD inline bool rows_in_groups(const PlaneStep<Real>& step) {
  return step.nx % kLanes<Real> == 0 && reinterpret_cast<std::uintptr_t>(step.in) % 16 == 0 &&
         reinterpret_cast<std::uintptr_t>(step.out) % 16 == 0;
}

// sweep_rows_by_cell in groups of kLanes cells: an item is one group of a row (the fixed columns
// included) and a run of rows below it, so each cell costs a third of a 16-byte load and the
// two cells beside its group (cached) instead of three loads. A fixed column's cell is written
// back unchanged: both planes hold the same fixed values. The same sums in the same order, so
// the same bits. kNorm: the norm's sum is kept (its own build of the loop: in one loop with a
// run-time flag, the resident kernel kept the sum and the flag in spilled registers on every
// pass, even of the iterations that take no norm).
template <bool kNorm, class Real>
HF_HD inline double sweep_rows_in_groups(const PlaneStep<Real>& step, const RowSet& set,
                                         std::int64_t member, std::int64_t members) {
  constexpr int kWidth = kLanes<Real>;
  const std::int64_t nx = step.nx;
  const std::int64_t groups = nx / kWidth;
  if (set.count <= 0) return 0.0;
  const auto [run, items] = sweep_cut(groups, set, members);
  const Real* __restrict__ in = step.in;
  Real* __restrict__ out = step.out;
  double sum = 0.0;
  for (std::int64_t item = member; item < items; item += members) {
    const std::uint32_t chunk =
        static_cast<std::uint32_t>(item) / static_cast<std::uint32_t>(groups);
    const std::int64_t group = item - static_cast<std::int64_t>(chunk) * groups;
    const std::int64_t first = static_cast<std::int64_t>(chunk) * run;
    const std::int64_t rows = set.count - first < run ? set.count - first : run;
    const std::int64_t column = group * kWidth;
    std::int64_t cell = (set.first + first * set.gap) * nx + column;
    Lanes<Real> up = *reinterpret_cast<const Lanes<Real>*>(in + cell - nx);
    Lanes<Real> center = *reinterpret_cast<const Lanes<Real>*>(in + cell);
#if HF_DEVICE_CODE
#pragma unroll 2
#endif
    for (std::int64_t r = 0; r < rows; ++r) {
      const Lanes<Real> down = *reinterpret_cast<const Lanes<Real>*>(in + cell + nx);
      // Beside the group: unused where the group holds a fixed column on that side.
      const Real before = group > 0 ? in[cell - 1] : center.v[0];
      const Real after = group + 1 < groups ? in[cell + kWidth] : center.v[kWidth - 1];
      Lanes<Real> next;
      HF_UNROLL
      for (int j = 0; j < kWidth; ++j) {
        const Real right = j + 1 < kWidth ? center.v[j + 1] : after;
        const Real left = j > 0 ? center.v[j - 1] : before;
        next.v[j] = four_point_mean(right, left, down.v[j], up.v[j]);
      }
      // A fixed column keeps its value (its mean above read a made-up neighbour); its change is
      // then exactly 0, and adding 0 leaves the norm's sum as it was. No branch per cell.
      if (group == 0) next.v[0] = center.v[0];
      if (group + 1 == groups) next.v[kWidth - 1] = center.v[kWidth - 1];
      if constexpr (kNorm) {
        HF_UNROLL
        for (int j = 0; j < kWidth; ++j) add_change(sum, next.v[j], center.v[j]);
      }
      store_group(out + cell, next);
      up = center;  // a run longer than one row has gap 1
      center = down;
      cell += nx;
    }
  }
  return sum;
}

// The items of one row in a sweep (sweep_rows): its 16-byte groups where the rows allow them,
// else its cells between the fixed columns.
template <class Real>
HF_HD inline std::int64_t row_units(const PlaneStep<Real>& step) {
  return rows_in_groups(step) ? step.nx / kLanes<Real> : step.nx - 2;
}

// The items of `set` when each walks the longest run (kMaxRowRun rows, or 1 where the rows are
// apart): members beyond this many would only shorten the runs.
template <class Real>
HF_HD inline std::int64_t items_at_longest_run(const PlaneStep<Real>& step, const RowSet& set) {
  const std::int64_t run = set.gap == 1 ? kMaxRowRun : 1;
  return row_units(step) * ((set.count + run - 1) / run);
}

// The items sweep_rows cuts `set` into among `members`.
template <class Real>
HF_HD inline std::int64_t sweep_items(const PlaneStep<Real>& step, const RowSet& set,
                                      std::int64_t members) {
  return set.count > 0 ? sweep_cut(row_units(step), set, members).items : 0;
}

// The update of `set`'s rows, in 16-byte groups where the rows allow it, else cell by cell:
// the same values either way.
template <class Real>
HF_HD inline double sweep_rows(const PlaneStep<Real>& step, const RowSet& set,
                               std::int64_t member, std::int64_t members, bool norm) {
  if (!rows_in_groups(step)) return sweep_rows_by_cell(step, set, member, members, norm);
  return norm ? sweep_rows_in_groups<true>(step, set, member, members)
              : sweep_rows_in_groups<false>(step, set, member, members);
}

}  // namespace jacobi2d
