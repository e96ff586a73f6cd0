/// @file
/// A 3D box of cells in the local index space of one rank's field (ghost cells included, so
/// local index 0 on an axis is the first ghost cell). Plain data, so it can be copied to a GPU.
#pragma once

#include <cstdint>

#include "haloflag/notify/portability.hpp"

namespace haloflag::kernels {

/// A box of cells of a local field.
struct Box {
  std::int64_t begin[3];   ///< first cell (x, y, z), local index space including ghosts
  std::int64_t extent[3];  ///< cells per axis (x, y, z); every extent is > 0 in a valid box

  /// Number of cells in the box.
  HF_HD constexpr std::int64_t cells() const { return extent[0] * extent[1] * extent[2]; }
};

/// Equal begin and extent on every axis.
HF_HD constexpr bool operator==(const Box& a, const Box& b) {
  for (int axis = 0; axis < 3; ++axis) {
    if (a.begin[axis] != b.begin[axis] || a.extent[axis] != b.extent[axis]) return false;
  }
  return true;
}

}  // namespace haloflag::kernels
