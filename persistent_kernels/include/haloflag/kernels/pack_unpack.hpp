// Packing and unpacking of one message by one thread group.
//
// Both functions are written for a group of `group_size` threads in which the caller is thread
// `group_thread` (0 <= group_thread < group_size): a CUDA/HIP block passes threadIdx.x and
// blockDim.x, a CPU thread passes 0 and 1, and a CPU "team" calls it once per member. Each thread
// strides over the message's elements (in buffer order), so the group together covers every
// element exactly once and no synchronisation is needed inside; the caller synchronises the
// group before announcing the message (flag protocol, docs/design.md).
//
// Buffer order (identical on both sides, so the sender's pack order is the receiver's unpack
// order): variable-major, then box in layout order, then z, y, x with x fastest.
//
// Preconditions (not checked here: these run on the GPU, without exceptions):
//   fields.variable_count >= layout.variable_count, every box lies inside the field,
//   buffer + layout.buffer_offset is aligned for Element and holds layout.bytes() bytes,
//   a message holds fewer than 2^31 elements.
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
// overlap their latencies instead of adding them up. A round spans variables and boxes, so a
// 1024-thread block moves a message of up to 8192 elements (64 kB) in one round trip, rather
// than one round trip per variable of a message with several.
inline constexpr int kElementsInFlight = 8;

// Offset in the field of cell `cell` of `box` (x fastest). Halo boxes hold far fewer than 2^31
// cells, so the divisions run in 32 bits, which GPUs do much faster than 64-bit ones.
HF_HD inline std::int64_t field_offset(const MessageLayout& layout, const Box& box,
                                       std::uint32_t cell) {
  const auto row = static_cast<std::uint32_t>(box.extent[0]);
  const auto plane = static_cast<std::uint32_t>(box.extent[0] * box.extent[1]);
  const std::uint32_t z = cell / plane;
  const std::uint32_t y = (cell - z * plane) / row;
  const std::uint32_t x = cell - z * plane - y * row;
  return layout.field_index(box.begin[0] + x, box.begin[1] + y, box.begin[2] + z);
}

// Where element `e` of the message (buffer order) lives in the field: its variable and its
// offset in that variable. A message holds far fewer than 2^31 elements (32-bit divisions).
struct FieldPlace {
  int variable;
  std::int64_t offset;
};

HF_HD inline FieldPlace field_place(const MessageLayout& layout, std::uint32_t cells_per_variable,
                                    std::uint32_t e) {
  const std::uint32_t variable = e / cells_per_variable;
  std::uint32_t cell = e - variable * cells_per_variable;
  int b = 0;
  for (; b + 1 < layout.box_count; ++b) {
    const auto box_cells = static_cast<std::uint32_t>(layout.boxes[b].cells());
    if (cell < box_cells) break;
    cell -= box_cells;
  }
  return {static_cast<int>(variable), field_offset(layout, layout.boxes[b], cell)};
}

// The elements of a message one thread moves, in rounds of up to kElementsInFlight.
//
// Thread t moves the elements whose place in the whole buffer is t modulo the group size, so
// consecutive threads move consecutive elements, and a group much larger than one message (the
// stacked grid) spreads the messages over different threads. Round r of thread t holds message
// elements first + (r * kElementsInFlight + k) * group_size, k < kElementsInFlight.
struct ThreadElements {
  std::int64_t first;                // this thread's first element of the message
  std::int64_t stride;               // group size
  std::int64_t count;                // elements in the message
  std::uint32_t cells_per_variable;  // elements of one variable (field_place)
};

HF_HD inline ThreadElements thread_elements(const MessageLayout& layout, int group_thread,
                                            int group_size) {
  const std::int64_t size = group_size;
  const std::int64_t buffer_base =
      layout.buffer_offset / static_cast<std::int64_t>(sizeof(Element));
  const std::int64_t cells_per_variable = layout.cells_per_variable();
  return {((group_thread - buffer_base) % size + size) % size, size,
          cells_per_variable * layout.variable_count,
          static_cast<std::uint32_t>(cells_per_variable)};
}

// Calls round(first_element) once per round of this thread.
template <class Round>
HF_HD void for_each_round(const ThreadElements& mine, Round round) {
  for (std::int64_t e = mine.first; e < mine.count; e += mine.stride * kElementsInFlight) {
    round(e);
  }
}

// Functors rather than lambdas: their execution space is spelled out, which nvcc and hipcc
// treat alike.
struct PackRound {
  const MessageLayout* layout;
  const FieldSet* fields;
  Element* message;
  ThreadElements mine;
  HF_HD void operator()(std::int64_t first) const {
    Element values[kElementsInFlight] = {};
    HF_UNROLL
    for (int k = 0; k < kElementsInFlight; ++k) {
      const std::int64_t e = first + k * mine.stride;
      if (e < mine.count) {
        const FieldPlace place =
            field_place(*layout, mine.cells_per_variable, static_cast<std::uint32_t>(e));
        values[k] = fields->variables[place.variable][place.offset];
      }
    }
    HF_UNROLL
    for (int k = 0; k < kElementsInFlight; ++k) {
      const std::int64_t e = first + k * mine.stride;
      if (e < mine.count) message[e] = values[k];
    }
  }
};

struct UnpackRound {
  const MessageLayout* layout;
  const FieldSet* fields;
  const Element* message;
  ThreadElements mine;
  HF_HD void operator()(std::int64_t first) const {
    Element values[kElementsInFlight] = {};
    HF_UNROLL
    for (int k = 0; k < kElementsInFlight; ++k) {
      const std::int64_t e = first + k * mine.stride;
      if (e < mine.count) values[k] = message[e];
    }
    HF_UNROLL
    for (int k = 0; k < kElementsInFlight; ++k) {
      const std::int64_t e = first + k * mine.stride;
      if (e < mine.count) {
        const FieldPlace place =
            field_place(*layout, mine.cells_per_variable, static_cast<std::uint32_t>(e));
        fields->variables[place.variable][place.offset] = values[k];
      }
    }
  }
};

}  // namespace detail

// Copies the message's cells from the field into `message`, the start of its data (thread
// shares follow layout.buffer_offset, so both sides of a message split it alike).
HF_HD inline void pack_message_at(const MessageLayout& layout, const FieldSet& fields,
                                  std::byte* message, int group_thread, int group_size) {
  const detail::ThreadElements mine = detail::thread_elements(layout, group_thread, group_size);
  detail::for_each_round(
      mine, detail::PackRound{&layout, &fields, reinterpret_cast<Element*>(message), mine});
}

// Copies the message from `message`, the start of its data, into the field's cells.
HF_HD inline void unpack_message_from(const MessageLayout& layout, const FieldSet& fields,
                                      const std::byte* message, int group_thread,
                                      int group_size) {
  const detail::ThreadElements mine = detail::thread_elements(layout, group_thread, group_size);
  detail::for_each_round(mine, detail::UnpackRound{&layout, &fields,
                                                   reinterpret_cast<const Element*>(message),
                                                   mine});
}

// The same with the message at buffer + layout.buffer_offset.
HF_HD inline void pack_message(const MessageLayout& layout, const FieldSet& fields,
                               std::byte* buffer, int group_thread, int group_size) {
  pack_message_at(layout, fields, buffer + layout.buffer_offset, group_thread, group_size);
}

HF_HD inline void unpack_message(const MessageLayout& layout, const FieldSet& fields,
                                 const std::byte* buffer, int group_thread, int group_size) {
  unpack_message_from(layout, fields, buffer + layout.buffer_offset, group_thread, group_size);
}

}  // namespace haloflag::kernels
