// The inputs of a decomposition, in Comb's terms (size, divide, periodic, ghost, vars).
#pragma once

#include <array>
#include <optional>

#include "haloflag/halo/index3.hpp"
#include "haloflag/halo/stencil.hpp"

namespace haloflag::halo {

struct GeometrySpec {
  Index3 global_size{0, 0, 0};            // cells of the whole domain per axis
  int ranks = 0;                          // number of ranks
  std::optional<RankGrid> divide;         // ranks per axis; empty: auto_divide(ranks, size)
  std::array<bool, 3> periodic{false, false, false};
  Index3 ghost{1, 1, 1};                  // ghost (halo) width per axis, in cells
  int vars = 1;                           // variables exchanged per cell
  int element_bytes = 8;                  // bytes per variable per cell
  Stencil stencil = Stencil::all26;

  bool operator==(const GeometrySpec&) const = default;
};

}  // namespace haloflag::halo
