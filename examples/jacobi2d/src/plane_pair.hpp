// One rank's two fields (its rows, one ghost row above and below, the fixed columns) on its
// backend: an iteration reads the current one and writes the other, which then becomes current.
// Each field is laid out as the Geometry's 3-plane field (problem.hpp); `plane(k)` is its middle
// plane, the only one used.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "haloflag/kernels/device_memory.hpp"
#include "haloflag/kernels/field_set.hpp"
#include "haloflag/notify/backend.hpp"
#include "problem.hpp"
#include "row_sweep.hpp"

namespace jacobi2d {

// Defined for float and double.
template <class Real>
class PlanePair {
 public:
  PlanePair(const Problem& problem, int rank, haloflag::notify::Backend backend);

  int rank() const { return rank_; }
  std::int64_t nx() const { return nx_; }
  std::int64_t rows() const { return rows_; }  // rows this rank updates
  // Field k (0 or 1) as an Exchange takes it, and its middle plane (device addresses).
  haloflag::kernels::FieldSet view(int k) const;
  Real* plane(int k) const;
  // The step that reads field `in` and writes the other.
  PlaneStep<Real> step(int in) const { return {plane(in), plane(in ^ 1), nx_}; }

  // Puts the initial field into both: fixed columns at their sine, every other cell 0.
  void reset();
  int current() const { return current_; }
  void advance(int steps) { current_ ^= steps & 1; }
  // The current field's rows 1 .. rows() (nx cells each), copied to the host.
  std::vector<Real> download_rows() const;

 private:
  std::int64_t nx_;
  std::int64_t ny_;
  int rank_;
  std::int64_t rows_;
  std::int64_t first_row_;  // global row of local row 1
  std::int64_t plane_cells_;
  std::array<haloflag::kernels::DeviceMemory, 2> fields_;
  int current_ = 0;
};

// The initial rows [first_row - 1, first_row - 1 + count) of the global grid, nx cells each.
template <class Real>
std::vector<Real> initial_rows(std::int64_t nx, std::int64_t ny, std::int64_t first_row,
                               std::int64_t count);

}  // namespace jacobi2d
