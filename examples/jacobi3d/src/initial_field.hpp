// The starting field, a function of global coordinates only: any decomposition starts from the
// same global field, and a ghost cell starts with the value of the periodic cell it mirrors.
#pragma once

#include "haloflag/halo/geometry.hpp"
#include "haloflag/halo/host_field.hpp"
#include "haloflag/halo/index3.hpp"

namespace jacobi3d {

// A value in [0, 1) with a full mantissa (so a misplaced cell or a changed rounding shows).
double initial_value(const haloflag::halo::Index3& global_cell);

// `rank`'s whole local field, ghosts included (wrapped periodically).
haloflag::halo::HostField initial_field(const haloflag::halo::Geometry& geometry, int rank);

}  // namespace jacobi3d
