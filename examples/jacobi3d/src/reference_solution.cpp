#include "reference_solution.hpp"

#include <cstddef>
#include <utility>
#include <vector>

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

// Copies into every ghost cell of `field` (`extent` cells, ghosts included, x fastest) the
// owned cell it mirrors across the periodic boundary.
template <class Real>
void refresh_periodic_ghosts(std::vector<Real>& field, const hh::Index3& extent,
                             const hh::Index3& owned) {
  const auto at = [&](std::int64_t x, std::int64_t y, std::int64_t z) -> Real& {
    return field[static_cast<std::size_t>((z * extent[1] + y) * extent[0] + x)];
  };
  for (std::int64_t z = 0; z < extent[2]; ++z) {
    for (std::int64_t y = 0; y < extent[1]; ++y) {
      const bool ghost_row = z == 0 || z == extent[2] - 1 || y == 0 || y == extent[1] - 1;
      for (std::int64_t x = 0; x < extent[0]; x += ghost_row ? 1 : extent[0] - 1) {
        at(x, y, z) = at(wrap_local(x, owned[0]), wrap_local(y, owned[1]), wrap_local(z, owned[2]));
      }
    }
  }
}

// The reference in Real: the same start (initial_field rounded to Real) and the same cell
// update (sweep_box<Real>) as every distributed run.
template <class Real>
hh::HostField reference_in(StencilKind stencil, const hh::Index3& global_size, int iterations) {
  const Problem single = make_problem(stencil, SizeKind::global, global_size, 1);
  const hh::HostField initial = initial_field(single.geometry, 0);
  const hh::Index3& extent = initial.extent();
  std::vector<Real> in = as_real<Real>(initial);
  std::vector<Real> out = in;
  const SweepRegions regions = sweep_regions(global_size, kGhostWidth);
  for (int step = 0; step < iterations; ++step) {
    refresh_periodic_ghosts(in, extent, global_size);
    const SweepFields<Real> fields{in.data(), out.data(), extent[0], extent[0] * extent[1]};
    sweep_box(stencil, fields, regions.owned, 0, 1);
    std::swap(in, out);
  }
  return as_host_field(in, extent);
}

}  // namespace

hh::HostField reference_solution(StencilKind stencil, Precision precision,
                                 const hh::Index3& global_size, int iterations) {
  return with_real(precision, [&]<class Real>() {
    return reference_in<Real>(stencil, global_size, iterations);
  });
}

}  // namespace jacobi3d
