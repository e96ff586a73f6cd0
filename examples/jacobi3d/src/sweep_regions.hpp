// The parts of a rank's owned cells that the resident variant updates at different times: the
// boundary layer (cells within one ghost width of a face: they read ghost cells, and the halo
// messages send them) and the interior (everything else: it reads owned cells only, so it can
// be updated while the messages fly). Plain data, passed to kernels by value.
#pragma once

#include <cstdint>

#include "haloflag/halo/index3.hpp"
#include "haloflag/kernels/box.hpp"

namespace jacobi3d {

// At most 6 slabs: z low/high (whole x-y planes), then y low/high and x low/high between them.
struct BoundaryLayer {
  haloflag::kernels::Box boxes[6];
  int count;
};

struct SweepRegions {
  haloflag::kernels::Box owned;     // every owned cell
  haloflag::kernels::Box interior;  // owned cells at least `width` from every face; may be empty
  BoundaryLayer boundary;           // owned minus interior, as disjoint boxes
};

// Regions of a field of `owned_extent` cells plus `ghost` ghost cells per side; the boundary
// layer is `ghost` cells thick. Needs owned_extent >= 2 * ghost on every axis (checked when the
// problem is set up).
SweepRegions sweep_regions(const haloflag::halo::Index3& owned_extent, std::int64_t ghost);

}  // namespace jacobi3d
