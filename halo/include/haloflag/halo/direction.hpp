/// @file
/// The 26 directions from a cell block to its neighbours and their numbering, which is also the
/// numbering of message tags.
///
/// Tag rule: the message a rank sends in direction d carries tag direction_index(d). Its peer
/// sits at d and sees the sender at -d, so a rank receiving from direction e expects tag
/// direction_index(opposite(e)) == 25 - direction_index(e). Tags are therefore unique per
/// (peer, tag) even when one peer sits in several directions (periodic axes with one or two
/// ranks) or a rank is its own neighbour.
#pragma once

#include <array>
#include <string>

namespace haloflag::halo {

inline constexpr int kDirectionCount = 26;  ///< Number of neighbour directions in 3D.

/// Offset (dx, dy, dz) in rank coordinates, each in {-1, 0, 1}, not all zero.
struct Direction {
  int dx = 0;  ///< offset along x
  int dy = 0;  ///< offset along y
  int dz = 0;  ///< offset along z

  /// The offset along `axis` (0 x, 1 y, 2 z).
  constexpr int operator[](int axis) const { return axis == 0 ? dx : axis == 1 ? dy : dz; }
  /// 1: face, 2: edge, 3: vertex.
  constexpr int nonzero_axes() const { return (dx != 0) + (dy != 0) + (dz != 0); }
  /// Equal offsets on every axis.
  bool operator==(const Direction&) const = default;
};

/// 0..25, x fastest: (dx+1) + 3(dy+1) + 9(dz+1), with the centre (13) left out.
constexpr int direction_index(Direction d) {
  const int raw = (d.dx + 1) + 3 * (d.dy + 1) + 9 * (d.dz + 1);
  return raw < 13 ? raw : raw - 1;
}

/// The direction with direction_index `index`.
constexpr Direction direction_from_index(int index) {
  const int raw = index < 13 ? index : index + 1;
  return Direction{raw % 3 - 1, (raw / 3) % 3 - 1, raw / 9 - 1};
}

/// The direction pointing the other way.
constexpr Direction opposite(Direction d) { return Direction{-d.dx, -d.dy, -d.dz}; }

/// direction_index of the opposite of the direction with index `index`.
constexpr int opposite_index(int index) { return kDirectionCount - 1 - index; }

/// "-x+y" style name, for messages.
std::string direction_name(Direction d);

}  // namespace haloflag::halo
