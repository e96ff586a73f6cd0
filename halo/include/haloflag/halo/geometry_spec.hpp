/// @file
/// The inputs of a decomposition, in Comb's terms (size, divide, periodic, ghost, vars).
#pragma once

#include <array>
#include <optional>
#include <vector>

#include "haloflag/halo/element_sizes.hpp"
#include "haloflag/halo/index3.hpp"
#include "haloflag/halo/stencil.hpp"

namespace haloflag::halo {

/// What a decomposition is asked for: domain size, ranks, ghosts, variables and stencil.
struct GeometrySpec {
  Index3 global_size{0, 0, 0};            ///< cells of the whole domain per axis
  int ranks = 0;                          ///< number of ranks
  std::optional<RankGrid> divide;         ///< ranks per axis; empty: auto_divide(ranks, size)
  std::array<bool, 3> periodic{false, false, false};  ///< whether each axis wraps around
  Index3 ghost{1, 1, 1};                  ///< ghost (halo) width per axis, in cells
  int vars = 1;                           ///< variables exchanged per cell
  int element_bytes = 8;                  ///< bytes per variable per cell
  std::vector<int> variable_bytes;        ///< mixed types: each variable's (vars entries)
  Stencil stencil = Stencil::all26;  ///< which neighbours exchange

  /// Element size of variable `var`.
  int bytes_of(int var) const { return element_bytes_of(variable_bytes, element_bytes, var); }
  /// Bytes of one cell, all variables.
  std::int64_t cell_bytes() const { return cell_bytes_of(variable_bytes, element_bytes, vars); }

  /// Equal in every field.
  bool operator==(const GeometrySpec&) const = default;
};

}  // namespace haloflag::halo
