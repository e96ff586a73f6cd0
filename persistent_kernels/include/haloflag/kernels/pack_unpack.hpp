// Packing and unpacking of one message by one thread group.
//
// Both functions are written for a group of `group_size` threads in which the caller is thread
// `group_thread` (0 <= group_thread < group_size): a CUDA/HIP block passes threadIdx.x and
// blockDim.x, a CPU thread passes 0 and 1, and a CPU "team" calls it once per member. Each thread
// strides over the message's elements (in buffer order), so the group together covers every
// element exactly once and no synchronisation is needed inside; the caller synchronises the group before announcing
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

// Elements one thread moves per round: all its loads of a round are issued before any of its
// stores. A GPU reading a message from host memory waits a PCIe round trip per load, so loads
// kept apart from the stores (the compiler may not reorder them: the buffers might alias)
// overlap their latencies instead of adding them up. Four keeps a 1024-thread block within the
// register budget.
inline constexpr int kElementsInFlight = 4;

// Offset in the field of cell `i` of `box` (x fastest). Halo boxes hold far fewer than 2^31
// cells, so the divisions run in 32 bits, which GPUs do much faster than 64-bit ones.
HF_HD inline std::int64_t field_offset(const MessageLayout& layout, const Box& box,
                                       std::int64_t i) {
  const auto cell = static_cast<std::uint32_t>(i);
  const auto row = static_cast<std::uint32_t>(box.extent[0]);
  const auto plane = static_cast<std::uint32_t>(box.extent[0] * box.extent[1]);
  const std::uint32_t z = cell / plane;
  const std::uint32_t y = (cell - z * plane) / row;
  const std::uint32_t x = cell - z * plane - y * row;
  return layout.field_index(box.begin[0] + x, box.begin[1] + y, box.begin[2] + z);
}

// Calls move(variable, box, first_cell, message_base) for every round of this thread: the
// round covers cells first_cell + k * group_size (k < kElementsInFlight) of the box, whose
// first cell is element message_base of the message.
//
// Thread t moves the elements whose place in the whole buffer is t modulo the group size, so
// consecutive threads move consecutive elements across box, variable and message boundaries. A
// group much larger than one message (the stacked grid) then spreads each element of a message,
// and the messages, over different threads: all its loads are in flight at once, instead of one
// round per variable in the first threads.
template <class Move>
HF_HD void for_each_round(const MessageLayout& layout, int group_thread, int group_size,
                          Move move) {
  std::int64_t message_base = 0;
  const std::int64_t size = group_size;
  const std::int64_t round_stride = size * kElementsInFlight;
  const std::int64_t buffer_base =
      layout.buffer_offset / static_cast<std::int64_t>(sizeof(Element));
  for (int v = 0; v < layout.variable_count; ++v) {
    for (int b = 0; b < layout.box_count; ++b) {
      const Box& box = layout.boxes[b];
      const std::int64_t cells = box.cells();
      // The first cell of this box that falls to this thread.
      const std::int64_t offset = ((group_thread - buffer_base - message_base) % size + size) % size;
      for (std::int64_t first = offset; first < cells; first += round_stride) {
        move(v, box, cells, first, message_base);
      }
      message_base += cells;
    }
  }
}

// Functors rather than lambdas: their execution space is spelled out, which nvcc and hipcc
// treat alike.
struct PackRound {
  const MessageLayout* layout;
  const FieldSet* fields;
  Element* message;
  std::int64_t stride;  // group size
  HF_HD void operator()(int variable, const Box& box, std::int64_t cells, std::int64_t first,
                        std::int64_t message_base) const {
    const Element* field = fields->variables[variable];
    Element values[kElementsInFlight] = {};
    HF_UNROLL
    for (int k = 0; k < kElementsInFlight; ++k) {
      const std::int64_t i = first + k * stride;
      if (i < cells) values[k] = field[field_offset(*layout, box, i)];
    }
    HF_UNROLL
    for (int k = 0; k < kElementsInFlight; ++k) {
      const std::int64_t i = first + k * stride;
      if (i < cells) message[message_base + i] = values[k];
    }
  }
};

struct UnpackRound {
  const MessageLayout* layout;
  const FieldSet* fields;
  const Element* message;
  std::int64_t stride;
  HF_HD void operator()(int variable, const Box& box, std::int64_t cells, std::int64_t first,
                        std::int64_t message_base) const {
    Element* field = fields->variables[variable];
    Element values[kElementsInFlight] = {};
    HF_UNROLL
    for (int k = 0; k < kElementsInFlight; ++k) {
      const std::int64_t i = first + k * stride;
      if (i < cells) values[k] = message[message_base + i];
    }
    HF_UNROLL
    for (int k = 0; k < kElementsInFlight; ++k) {
      const std::int64_t i = first + k * stride;
      if (i < cells) field[field_offset(*layout, box, i)] = values[k];
    }
  }
};

}  // namespace detail

// Copies the message's cells from the field into buffer + layout.buffer_offset.
HF_HD inline void pack_message(const MessageLayout& layout, const FieldSet& fields,
                               std::byte* buffer, int group_thread, int group_size) {
  Element* message = reinterpret_cast<Element*>(buffer + layout.buffer_offset);
  detail::for_each_round(layout, group_thread, group_size,
                         detail::PackRound{&layout, &fields, message, group_size});
}

// Copies the message from buffer + layout.buffer_offset into the field's cells.
HF_HD inline void unpack_message(const MessageLayout& layout, const FieldSet& fields,
                                 const std::byte* buffer, int group_thread, int group_size) {
  const Element* message = reinterpret_cast<const Element*>(buffer + layout.buffer_offset);
  detail::for_each_round(layout, group_thread, group_size,
                         detail::UnpackRound{&layout, &fields, message, group_size});
}

}  // namespace haloflag::kernels
