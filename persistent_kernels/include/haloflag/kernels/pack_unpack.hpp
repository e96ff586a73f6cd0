// Packing and unpacking of one message by one thread group.
//
// Both functions are written for a group of `group_size` threads in which the caller is thread
// `group_thread` (0 <= group_thread < group_size): a CUDA/HIP block passes threadIdx.x and
// blockDim.x, a CPU thread passes 0 and 1, and a CPU "team" calls it once per member. Each thread
// strides over the message's elements, so the group together covers every element exactly once
// and no synchronisation is needed inside; the caller synchronises the group before announcing
// the message (flag protocol, DESIGN.md §4).
//
// Buffer order (identical on both sides, so the sender's pack order is the receiver's unpack
// order): variable-major, then box in layout order, then z, y, x with x fastest.
//
// Preconditions (not checked here: these run on the GPU, without exceptions):
//   fields.variable_count >= layout.variable_count, every box lies inside the field,
//   buffer + layout.buffer_offset is aligned for Element and holds layout.bytes() bytes.
#pragma once

#include <cstddef>
#include <cstdint>

#include "haloflag/kernels/field_set.hpp"
#include "haloflag/notify/portability.hpp"
#include "haloflag/kernels/message_layout.hpp"

namespace haloflag::kernels {

namespace detail {

// Calls copy(variable, field_index, message_index) for every element this thread owns, in
// buffer order.
template <class Copy>
HF_HD void for_each_message_element(const MessageLayout& layout, int group_thread,
                                          int group_size, Copy copy) {
  std::int64_t message_base = 0;  // elements of the message before the current (variable, box)
  for (int v = 0; v < layout.variable_count; ++v) {
    for (int b = 0; b < layout.box_count; ++b) {
      const Box& box = layout.boxes[b];
      const std::int64_t row = box.extent[0];
      const std::int64_t plane = box.extent[0] * box.extent[1];
      const std::int64_t cells = box.cells();
      for (std::int64_t i = group_thread; i < cells; i += group_size) {
        const std::int64_t z = i / plane;
        const std::int64_t y = (i - z * plane) / row;
        const std::int64_t x = i - z * plane - y * row;
        copy(v, layout.field_index(box.begin[0] + x, box.begin[1] + y, box.begin[2] + z),
             message_base + i);
      }
      message_base += cells;
    }
  }
}

// Functors rather than lambdas: their execution space is spelled out, which nvcc and hipcc
// treat alike.
struct PackElement {
  const FieldSet* fields;
  Element* message;
  HF_HD void operator()(int variable, std::int64_t field_index,
                              std::int64_t message_index) const {
    message[message_index] = fields->variables[variable][field_index];
  }
};

struct UnpackElement {
  const FieldSet* fields;
  const Element* message;
  HF_HD void operator()(int variable, std::int64_t field_index,
                              std::int64_t message_index) const {
    fields->variables[variable][field_index] = message[message_index];
  }
};

}  // namespace detail

// Copies the message's cells from the field into buffer + layout.buffer_offset.
HF_HD inline void pack_message(const MessageLayout& layout, const FieldSet& fields,
                                     std::byte* buffer, int group_thread, int group_size) {
  Element* message = reinterpret_cast<Element*>(buffer + layout.buffer_offset);
  detail::for_each_message_element(layout, group_thread, group_size,
                                   detail::PackElement{&fields, message});
}

// Copies the message from buffer + layout.buffer_offset into the field's cells.
HF_HD inline void unpack_message(const MessageLayout& layout, const FieldSet& fields,
                                       const std::byte* buffer, int group_thread,
                                       int group_size) {
  const Element* message = reinterpret_cast<const Element*>(buffer + layout.buffer_offset);
  detail::for_each_message_element(layout, group_thread, group_size,
                                   detail::UnpackElement{&fields, message});
}

}  // namespace haloflag::kernels
