#include "transports/node/node_placement.hpp"

#include <algorithm>
#include <limits>

namespace haloflag::halo::detail {

std::int64_t shortest_row_bytes(const kernels::MessageLayout& layout,
                                const kernels::FieldSet& fields) {
  std::int64_t shortest = std::numeric_limits<std::int64_t>::max();
  const int variables = std::min(layout.variable_count, fields.variable_count);
  for (int v = 0; v < variables; ++v) {
    const kernels::VariableView& view = fields.variables[v];
    const std::int64_t element = view.element_bytes;
    for (int b = 0; b < layout.box_count; ++b) {
      const bool rows_dense = view.stride[0] == element;
      shortest = std::min(shortest, rows_dense ? layout.boxes[b].extent[0] * element : element);
    }
  }
  return shortest == std::numeric_limits<std::int64_t>::max() ? 0 : shortest;
}

bool peer_takes_lines(const std::vector<kernels::MessageLayout>& receives, Strategy strategy,
                      std::int64_t up_to_bytes) {
  // The bulk strategies (and nccl) pack whole messages into the receiver's buffer in buffer
  // order; the flag strategies' kernels move pieces.
  if (!uses_flags(strategy) || up_to_bytes <= 0) return false;
  std::int64_t bytes = 0;
  for (const kernels::MessageLayout& layout : receives) {
    for (int v = 0; v < layout.variable_count; ++v) {
      if (layout.element_bytes[v] % 4 != 0) return false;
    }
    bytes += layout.bytes();
  }
  return !receives.empty() && bytes <= up_to_bytes;
}

bool receive_through_buffer(const kernels::MessageLayout& layout, const kernels::FieldSet& fields,
                            NodePlacement placement, std::int64_t buffered_from_bytes) {
  switch (placement) {
    case NodePlacement::direct: return false;
    case NodePlacement::buffered: return true;
    case NodePlacement::by_shape:
      return layout.bytes() >= buffered_from_bytes &&
             shortest_row_bytes(layout, fields) < kDirectRowBytes;
  }
  return false;
}

}  // namespace haloflag::halo::detail
