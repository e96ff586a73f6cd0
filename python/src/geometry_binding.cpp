// _core.Geometry: halo::Geometry as the package needs it. Shapes stay in the library's (x, y, z)
// order here; haloflag/geometry.py turns them into NumPy's (z, y, x).
#include <nanobind/stl/array.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <array>
#include <optional>
#include <tuple>
#include <vector>

#include "bindings.hpp"
#include "haloflag/halo/geometry.hpp"

namespace nb = nanobind;

namespace haloflag::python {
namespace {

halo::Geometry make_geometry(const halo::Index3& size, int ranks, std::array<bool, 3> periodic,
                             const halo::Index3& ghost, std::optional<halo::RankGrid> divide,
                             bool faces_only) {
  halo::GeometrySpec spec;
  spec.global_size = size;
  spec.ranks = ranks;
  spec.periodic = periodic;
  spec.ghost = ghost;
  spec.divide = divide;
  spec.stencil = faces_only ? halo::Stencil::faces6 : halo::Stencil::all26;
  return halo::Geometry(spec);
}

}  // namespace

void bind_geometry(nb::module_& module) {
  nb::class_<halo::Geometry>(module, "Geometry")
      .def("__init__",
           [](halo::Geometry* self, const halo::Index3& size, int ranks, std::array<bool, 3> periodic,
              const halo::Index3& ghost, std::optional<halo::RankGrid> divide, bool faces_only) {
             new (self) halo::Geometry(make_geometry(size, ranks, periodic, ghost, divide, faces_only));
           })
      .def_prop_ro("rank_grid", &halo::Geometry::rank_grid)
      .def("subdomain",
           [](const halo::Geometry& geometry, int rank) {
             const halo::Subdomain sub = geometry.subdomain(rank);
             return std::make_tuple(sub.offset, sub.extent, sub.field_extent);
           })
      .def("neighbours", [](const halo::Geometry& geometry, int rank) {
        std::vector<std::tuple<int, int, int, int>> result;
        for (const halo::Neighbour& n : geometry.neighbours(rank)) {
          result.emplace_back(n.direction.dx, n.direction.dy, n.direction.dz, n.peer);
        }
        return result;
      });
}

}  // namespace haloflag::python
