// Updating every cell of a box (or of several boxes), shared out among the members of a group:
// member `member` of `members` takes cells member, member + members, ... (x fastest), so a GPU
// grid, a GPU block, a team of CPU threads or one CPU thread covers the boxes exactly once.
#pragma once

#include <cstdint>

#include "cell_update.hpp"
#include "haloflag/kernels/box.hpp"
#include "haloflag/notify/portability.hpp"

namespace jacobi3d {

template <class Real>
HF_HD inline void sweep_box(StencilKind kind, const SweepFields<Real>& fields,
                            const haloflag::kernels::Box& box, std::int64_t member,
                            std::int64_t members) {
  const std::int64_t cells = box.cells();
  // A local field holds far fewer than 2^32 cells: the index arithmetic runs in 32 bits, which
  // GPUs divide much faster than 64-bit numbers.
  const auto row = static_cast<std::uint32_t>(box.extent[0]);
  const auto plane = static_cast<std::uint32_t>(box.extent[0] * box.extent[1]);
  for (std::int64_t i = member; i < cells; i += members) {
    const auto index = static_cast<std::uint32_t>(i);
    const std::uint32_t z = index / plane;
    const std::uint32_t y = (index - z * plane) / row;
    const std::uint32_t x = index - z * plane - y * row;
    const std::int64_t cell = (box.begin[2] + z) * fields.stride_z +
                              (box.begin[1] + y) * fields.stride_y + box.begin[0] + x;
    update_cell(kind, fields, cell);
  }
}

// Every cell of `count` boxes, laid end to end and shared out as one: a grid with more members
// than cells then has every cell's loads in flight at once, where box after box would wait for
// memory once per box.
template <class Real>
HF_HD inline void sweep_boxes(StencilKind kind, const SweepFields<Real>& fields,
                              const haloflag::kernels::Box* boxes, int count, std::int64_t member,
                              std::int64_t members) {
  std::int64_t before = 0;  // cells of the boxes before boxes[b]
  for (int b = 0; b < count; ++b) {
    // The member's first cell in this box: the least i >= 0 with before + i = member (mod members).
    const std::int64_t first = ((member - before) % members + members) % members;
    sweep_box(kind, fields, boxes[b], first, members);
    before += boxes[b].cells();
  }
}

}  // namespace jacobi3d
