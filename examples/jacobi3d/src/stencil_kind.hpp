// Which Jacobi stencil runs: 7 points (the cell and its 6 face neighbours, 6 halo messages) or
// 27 points (the 3x3x3 cube around the cell, 26 halo messages).
#pragma once

#include <string>

#include "haloflag/halo/stencil.hpp"

namespace jacobi3d {

enum class StencilKind { seven_point, twenty_seven_point };

// 7 or 27: the number on the command line and in reports.
constexpr int stencil_points(StencilKind kind) {
  return kind == StencilKind::seven_point ? 7 : 27;
}

// The neighbours whose ghost cells the stencil reads.
constexpr haloflag::halo::Stencil halo_stencil(StencilKind kind) {
  return kind == StencilKind::seven_point ? haloflag::halo::Stencil::faces6
                                          : haloflag::halo::Stencil::all26;
}

// Throws std::invalid_argument for anything but 7 or 27.
StencilKind stencil_from_points(int points);

}  // namespace jacobi3d
