// The decompositions the MPI halo tests run, shared by the plain exchange test and the
// strategy test: sizes that divide and do not, periodic, mixed and bounded axes, ghost widths 1
// and 2, 1 to 3 variables, 26 and 6 neighbours. Every case is valid for any world size; explicit
// grids are written for "p" ranks.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "haloflag/halo/geometry.hpp"
#include "mpi_world.hpp"

namespace haloflag::test {

struct GeometryCase {
  std::string name;
  halo::Index3 size;
  std::optional<halo::RankGrid> divide;  // a grid for world_size() ranks; empty: auto divide
  std::array<bool, 3> periodic;
  halo::Index3 ghost;
  int vars;
  halo::Stencil stencil;
};

inline std::vector<GeometryCase> geometry_cases() {
  using halo::RankGrid;
  using halo::Stencil;
  const std::array<bool, 3> all{true, true, true};
  const std::array<bool, 3> none{false, false, false};
  const int p = world_size();
  return {
      {"cube_auto_periodic", {12, 12, 12}, std::nullopt, all, {1, 1, 1}, 1, Stencil::all26},
      {"nondivisible_auto_nonperiodic", {13, 11, 9}, std::nullopt, none, {1, 1, 1}, 2,
       Stencil::all26},
      {"nondivisible_mixed_ghost2", {10, 9, 14}, std::nullopt, {true, false, true}, {2, 2, 2}, 3,
       Stencil::all26},
      {"slabs_x_periodic_ghost2", {16, 8, 8}, RankGrid{p, 1, 1}, all, {2, 2, 2}, 3,
       Stencil::all26},
      {"slabs_y_uneven_ghost", {7, 17, 9}, RankGrid{1, p, 1}, {true, true, false}, {2, 1, 2}, 2,
       Stencil::all26},
      {"faces_only_periodic", {12, 10, 8}, std::nullopt, all, {1, 1, 1}, 2, Stencil::faces6},
      {"faces_only_nonperiodic_ghost2", {14, 14, 14}, std::nullopt, none, {2, 2, 2}, 1,
       Stencil::faces6},
  };
}

inline halo::Geometry make_geometry(const GeometryCase& c) {
  halo::GeometrySpec spec;
  spec.global_size = c.size;
  spec.ranks = world_size();
  spec.divide = c.divide;
  spec.periodic = c.periodic;
  spec.ghost = c.ghost;
  spec.vars = c.vars;
  spec.stencil = c.stencil;
  return halo::Geometry(spec);
}

}  // namespace haloflag::test
