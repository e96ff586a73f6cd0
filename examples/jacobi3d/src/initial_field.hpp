// The starting field, a function of global coordinates only: any decomposition starts from the
// same global field, and a ghost cell starts with the value of the periodic cell it mirrors.
#pragma once

#include <cstddef>
#include <vector>

#include "haloflag/halo/geometry.hpp"
#include "haloflag/halo/host_field.hpp"
#include "haloflag/halo/index3.hpp"

namespace jacobi3d {

// A value in [0, 1) with a full mantissa (so a misplaced cell or a changed rounding shows).
double initial_value(const haloflag::halo::Index3& global_cell);

// `rank`'s whole local field, ghosts included (wrapped periodically).
haloflag::halo::HostField initial_field(const haloflag::halo::Geometry& geometry, int rank);

// A field's (first) variable as Real, each value rounded to nearest: the field a run in float
// or double starts from, on every rank and in the reference alike.
template <class Real>
std::vector<Real> as_real(const haloflag::halo::HostField& field) {
  const double* values = field.variable(0);
  std::vector<Real> converted(static_cast<std::size_t>(field.cells()));
  for (std::size_t i = 0; i < converted.size(); ++i) converted[i] = static_cast<Real>(values[i]);
  return converted;
}

// The reverse: Real values of a one-variable field of `extent` as the HostField the checks and
// reports read (float widens to double exactly).
template <class Real>
haloflag::halo::HostField as_host_field(const std::vector<Real>& values,
                                        const haloflag::halo::Index3& extent) {
  haloflag::halo::HostField field(extent, 1);
  double* cells = field.variable(0);
  for (std::size_t i = 0; i < values.size(); ++i) cells[i] = static_cast<double>(values[i]);
  return field;
}

}  // namespace jacobi3d
