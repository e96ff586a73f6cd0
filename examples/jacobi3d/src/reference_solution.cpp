#include "reference_solution.hpp"

#include <utility>

#include "box_sweep.hpp"
#include "initial_field.hpp"
#include "problem.hpp"
#include "sweep_regions.hpp"

namespace jacobi3d {

namespace {

namespace hh = haloflag::halo;

// Owned index of ghost coordinate `c` along an axis of `n` owned cells (ghost width 1).
std::int64_t wrap_local(std::int64_t c, std::int64_t n) {
  if (c == 0) return n;
  if (c == n + 1) return 1;
  return c;
}

// Copies into every ghost cell the owned cell it mirrors across the periodic boundary.
void refresh_periodic_ghosts(hh::HostField& field, const hh::Index3& owned) {
  const hh::Index3& extent = field.extent();
  for (std::int64_t z = 0; z < extent[2]; ++z) {
    for (std::int64_t y = 0; y < extent[1]; ++y) {
      const bool ghost_row = z == 0 || z == extent[2] - 1 || y == 0 || y == extent[1] - 1;
      for (std::int64_t x = 0; x < extent[0]; x += ghost_row ? 1 : extent[0] - 1) {
        field.at(0, {x, y, z}) =
            field.at(0, {wrap_local(x, owned[0]), wrap_local(y, owned[1]), wrap_local(z, owned[2])});
      }
    }
  }
}

}  // namespace

hh::HostField reference_solution(StencilKind stencil, const hh::Index3& global_size,
                                 int iterations) {
  const Problem single = make_problem(stencil, SizeKind::global, global_size, 1);
  hh::HostField in = initial_field(single.geometry, 0);
  hh::HostField out = in;
  const SweepRegions regions = sweep_regions(global_size, kGhostWidth);
  const hh::Index3& extent = in.extent();
  for (int step = 0; step < iterations; ++step) {
    refresh_periodic_ghosts(in, global_size);
    const SweepFields fields{in.variable(0), out.variable(0), extent[0], extent[0] * extent[1]};
    sweep_box(stencil, fields, regions.owned, 0, 1);
    std::swap(in, out);
  }
  return in;
}

}  // namespace jacobi3d
