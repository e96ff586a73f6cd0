/// @file
/// A rank's field in host memory: one array of doubles per variable, x fastest, ghosts
/// included. What verification fills and checks; copied to and from the device fields.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "haloflag/halo/index3.hpp"
#include "haloflag/kernels/field_set.hpp"

namespace haloflag::halo {

/// A rank's field variables (doubles) in host memory, x fastest.
class HostField {
 public:
  /// A field of `extent` cells with `vars` variables, every value `initial`.
  HostField(const Index3& extent, int vars, double initial = 0.0);

  /// Cells per axis.
  const Index3& extent() const { return extent_; }
  /// Number of variables.
  int vars() const { return static_cast<int>(data_.size()); }
  /// Number of cells.
  std::int64_t cells() const { return extent_[0] * extent_[1] * extent_[2]; }

  /// Value of variable `var` at local index `local`.
  double& at(int var, const Index3& local) { return data_[static_cast<std::size_t>(var)][index(local)]; }
  /// Value of variable `var` at local index `local`.
  double at(int var, const Index3& local) const {
    return data_[static_cast<std::size_t>(var)][index(local)];
  }
  /// The values of variable `var`.
  double* variable(int var) { return data_[static_cast<std::size_t>(var)].data(); }
  /// The values of variable `var`.
  const double* variable(int var) const { return data_[static_cast<std::size_t>(var)].data(); }
  /// The variables as kernels address them (dense, x fastest).
  kernels::FieldSet view();

 private:
  std::size_t index(const Index3& local) const {
    return static_cast<std::size_t>((local[2] * extent_[1] + local[1]) * extent_[0] + local[0]);
  }

  Index3 extent_;
  std::vector<std::vector<double>> data_;
};

}  // namespace haloflag::halo
