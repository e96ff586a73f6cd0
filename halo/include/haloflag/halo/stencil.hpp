/// @file
/// Which neighbours exchange halos: all 26 (27-point stencil: faces, edges and vertices) or the 6
/// face neighbours only (7-point stencil).
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "haloflag/halo/direction.hpp"

namespace haloflag::halo {

/// Which neighbours exchange: all 26, or the 6 face neighbours.
enum class Stencil { all26, faces6 };

/// Whether direction `d` belongs to `stencil`.
constexpr bool in_stencil(Stencil stencil, Direction d) {
  return stencil == Stencil::all26 || d.nonzero_axes() == 1;
}

/// Directions of the stencil in direction_index order.
std::vector<Direction> stencil_directions(Stencil stencil);

/// 26 or 6: the number written in config files.
constexpr int stencil_points(Stencil stencil) { return stencil == Stencil::all26 ? 26 : 6; }
/// The stencil with `points` points (26 or 6), if any.
std::optional<Stencil> stencil_from_points(long points);

}  // namespace haloflag::halo
