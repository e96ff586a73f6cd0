// The single-rank periodic reference: the same cell update on the whole grid, on the host, in
// the same precision, with the periodic ghost cells refreshed by copying before every step. A
// distributed run must match it bit for bit.
#pragma once

#include "haloflag/halo/host_field.hpp"
#include "haloflag/halo/index3.hpp"
#include "precision.hpp"
#include "stencil_kind.hpp"

namespace jacobi3d {

// The global field (ghost width 1 on each side) after `iterations` steps from initial_value
// rounded to the precision's type, computed in that type; float values are widened to double
// (exactly) in the result.
haloflag::halo::HostField reference_solution(StencilKind stencil, Precision precision,
                                             const haloflag::halo::Index3& global_size,
                                             int iterations);

}  // namespace jacobi3d
