#include "stencil_kind.hpp"

#include <stdexcept>

namespace jacobi3d {

StencilKind stencil_from_points(int points) {
  if (points == 7) return StencilKind::seven_point;
  if (points == 27) return StencilKind::twenty_seven_point;
  throw std::invalid_argument("--stencil must be 7 or 27, got " + std::to_string(points));
}

}  // namespace jacobi3d
