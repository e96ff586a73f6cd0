#include "initial_field.hpp"

#include <cstdint>

namespace jacobi3d {

namespace hh = haloflag::halo;

double initial_value(const hh::Index3& global_cell) {
  // An integer hash of the coordinates, scaled by a number that is not a power of two.
  const auto x = static_cast<std::uint64_t>(global_cell[0]);
  const auto y = static_cast<std::uint64_t>(global_cell[1]);
  const auto z = static_cast<std::uint64_t>(global_cell[2]);
  const std::uint64_t hash = (x * 73856093u) ^ (y * 19349663u) ^ (z * 83492791u);
  return static_cast<double>(hash % 100003u) / 100003.0;
}

hh::HostField initial_field(const hh::Geometry& geometry, int rank) {
  const hh::Subdomain sub = geometry.subdomain(rank);
  hh::HostField field(sub.field_extent, 1);
  for (std::int64_t z = 0; z < sub.field_extent[2]; ++z) {
    for (std::int64_t y = 0; y < sub.field_extent[1]; ++y) {
      for (std::int64_t x = 0; x < sub.field_extent[0]; ++x) {
        const hh::Index3 local{x, y, z};
        // Every axis is periodic, so every cell has a wrapped global position.
        field.at(0, local) = initial_value(*geometry.wrap(geometry.global_index(rank, local)));
      }
    }
  }
  return field;
}

}  // namespace jacobi3d
