#include "haloflag/halo/direction.hpp"

#include "haloflag/halo/index3.hpp"

namespace haloflag::halo {

std::string direction_name(Direction d) {
  std::string name;
  for (int axis = 0; axis < 3; ++axis) {
    if (d[axis] == 0) continue;
    name += d[axis] < 0 ? '-' : '+';
    name += kAxisNames[axis];
  }
  return name;
}

}  // namespace haloflag::halo
