// Where one message's data lives: in the field (boxes, for each variable, addressed through the
// field's strides) and in the message buffer (a byte offset). Trivially copyable with a fixed
// box capacity, so an array of layouts reaches the GPU in one copy and one block reads its own
// entry with no pointer fix-ups.
#pragma once

#include <cstdint>
#include <type_traits>

#include "haloflag/kernels/box.hpp"
#include "haloflag/notify/portability.hpp"

namespace haloflag::kernels {

// Halo messages built from geometry have one box; configs may merge a few. Eight is plenty and
// keeps a layout small (416 bytes).
inline constexpr int kMaxBoxesPerMessage = 8;

// Elements are doubles: the halo library's fields are arrays of double per variable.
using Element = double;

struct MessageLayout {
  Box boxes[kMaxBoxesPerMessage];  // only the first box_count are used
  int box_count;
  int variable_count;        // every box is sent once per variable
  std::int64_t stride_y;     // elements between (x, y, z) and (x, y+1, z); x stride is 1
  std::int64_t stride_z;     // elements between (x, y, z) and (x, y, z+1)
  std::int64_t buffer_offset;  // bytes from the start of the buffer to this message's data

  // Cells of all boxes, counted once (one variable).
  HF_HD constexpr std::int64_t cells_per_variable() const {
    std::int64_t cells = 0;
    for (int b = 0; b < box_count; ++b) cells += boxes[b].cells();
    return cells;
  }
  HF_HD constexpr std::int64_t element_count() const {
    return cells_per_variable() * variable_count;
  }
  HF_HD constexpr std::int64_t bytes() const {
    return element_count() * static_cast<std::int64_t>(sizeof(Element));
  }
  // Offset of cell (x, y, z) of the local field, in elements from the variable's base pointer.
  HF_HD constexpr std::int64_t field_index(std::int64_t x, std::int64_t y,
                                                 std::int64_t z) const {
    return z * stride_z + y * stride_y + x;
  }
};

static_assert(std::is_trivially_copyable_v<MessageLayout>);
static_assert(std::is_standard_layout_v<MessageLayout>);

}  // namespace haloflag::kernels
