#include "haloflag/halo/stencil.hpp"

namespace haloflag::halo {

std::vector<Direction> stencil_directions(Stencil stencil) {
  std::vector<Direction> directions;
  for (int index = 0; index < kDirectionCount; ++index) {
    const Direction d = direction_from_index(index);
    if (in_stencil(stencil, d)) directions.push_back(d);
  }
  return directions;
}

std::optional<Stencil> stencil_from_points(long points) {
  if (points == 26) return Stencil::all26;
  if (points == 6) return Stencil::faces6;
  return std::nullopt;
}

}  // namespace haloflag::halo
