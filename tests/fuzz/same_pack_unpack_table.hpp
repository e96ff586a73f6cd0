// Whether two pack/unpack tables are the same up to the writer's rounding: equal sizes, and
// times that agree to the 12 significant digits the file form keeps (model/src/params_file.cpp).
#pragma once

#include <cmath>
#include <cstddef>

#include "haloflag/model/pack_unpack_table.hpp"

namespace haloflag::fuzz {

inline bool same_time_as_written(double a, double b) {
  return std::fabs(a - b) <= 1e-11 * std::fmax(std::fabs(a), std::fabs(b));
}

inline bool same_pack_unpack_table(const model::PackUnpackTable& a,
                                   const model::PackUnpackTable& b) {
  if (a.points().size() != b.points().size()) return false;
  for (std::size_t i = 0; i < a.points().size(); ++i) {
    const model::PackUnpackPoint& p = a.points()[i];
    const model::PackUnpackPoint& q = b.points()[i];
    if (p.bytes != q.bytes || !same_time_as_written(p.pack_seconds, q.pack_seconds) ||
        !same_time_as_written(p.unpack_seconds, q.unpack_seconds)) {
      return false;
    }
  }
  return true;
}

}  // namespace haloflag::fuzz
