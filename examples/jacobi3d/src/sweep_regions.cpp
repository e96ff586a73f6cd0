#include "sweep_regions.hpp"

namespace jacobi3d {

namespace {

haloflag::kernels::Box make_box(const haloflag::halo::Index3& begin,
                                const haloflag::halo::Index3& extent) {
  return {{begin[0], begin[1], begin[2]}, {extent[0], extent[1], extent[2]}};
}

}  // namespace

SweepRegions sweep_regions(const haloflag::halo::Index3& owned_extent, std::int64_t ghost) {
  SweepRegions regions{};
  const haloflag::halo::Index3 first{ghost, ghost, ghost};
  regions.owned = make_box(first, owned_extent);

  haloflag::halo::Index3 inner_first{};
  haloflag::halo::Index3 inner_extent{};
  for (int axis = 0; axis < 3; ++axis) {
    inner_first[axis] = first[axis] + ghost;
    inner_extent[axis] = owned_extent[axis] - 2 * ghost;
    if (inner_extent[axis] < 0) inner_extent[axis] = 0;
  }
  regions.interior = make_box(inner_first, inner_extent);

  // Peel the owned box axis by axis, z first: each pair of slabs spans what the previous axes
  // left, so the slabs are disjoint and, with the interior, cover every owned cell once.
  haloflag::halo::Index3 span_first = first;
  haloflag::halo::Index3 span_extent = owned_extent;
  for (int axis = 2; axis >= 0; --axis) {
    if (span_extent[0] == 0 || span_extent[1] == 0 || span_extent[2] == 0) break;
    haloflag::halo::Index3 slab_extent = span_extent;
    slab_extent[axis] = ghost;
    haloflag::halo::Index3 low = span_first;
    haloflag::halo::Index3 high = span_first;
    high[axis] = span_first[axis] + span_extent[axis] - ghost;
    regions.boundary.boxes[regions.boundary.count++] = make_box(low, slab_extent);
    regions.boundary.boxes[regions.boundary.count++] = make_box(high, slab_extent);
    span_first[axis] += ghost;
    span_extent[axis] -= 2 * ghost;
  }
  return regions;
}

}  // namespace jacobi3d
