/// @file
/// Each variable's element size, as configs and geometries give it: one size for every variable,
/// or one per variable where a field mixes types (a float and an int32 per cell, say).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace haloflag::halo {

/// variable_bytes[var] when the sizes are given per variable, else element_bytes.
inline int element_bytes_of(const std::vector<int>& variable_bytes, int element_bytes, int var) {
  return variable_bytes.empty() ? element_bytes : variable_bytes[static_cast<std::size_t>(var)];
}

/// Bytes of one cell over `vars` variables.
inline std::int64_t cell_bytes_of(const std::vector<int>& variable_bytes, int element_bytes,
                                  int vars) {
  std::int64_t sum = 0;
  for (int v = 0; v < vars; ++v) sum += element_bytes_of(variable_bytes, element_bytes, v);
  return sum;
}

}  // namespace haloflag::halo
