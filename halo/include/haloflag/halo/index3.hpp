/// @file
/// Per-axis triples (x, y, z) used throughout the geometry, and their text form "x,y,z".
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <type_traits>

namespace haloflag::halo {

using Index3 = std::array<std::int64_t, 3>;  ///< cell counts or cell indices per axis
using RankGrid = std::array<int, 3>;         ///< ranks per axis, or a rank's coordinates

inline constexpr std::array<char, 3> kAxisNames{'x', 'y', 'z'};  ///< Axis names, indexed by axis.

/// The three values joined by `separator`, e.g. "4,2,2".
template <class T>
std::string format_triple(const std::array<T, 3>& values, char separator = ',') {
  std::string text;
  for (int axis = 0; axis < 3; ++axis) {
    if (axis > 0) text += separator;
    if constexpr (std::is_same_v<T, bool>) {
      text += values[axis] ? '1' : '0';
    } else {
      text += std::to_string(values[axis]);
    }
  }
  return text;
}

}  // namespace haloflag::halo
