/// @file
/// Packing and unpacking of one message by one thread group.
///
/// Both functions are written for a group of `group_size` threads in which the caller is thread
/// `group_thread` (0 <= group_thread < group_size): a CUDA/HIP block passes threadIdx.x and
/// blockDim.x, a CPU thread passes 0 and 1, and a CPU "team" calls it once per member. Each thread
/// strides over the message's elements (in buffer order), so the group together covers every
/// element exactly once and no synchronisation is needed inside; the caller synchronises the
/// group before announcing the message (flag protocol, docs/design.md).
///
/// Buffer order (identical on both sides, so the sender's pack order is the receiver's unpack
/// order): variable-major, then box in layout order, then z, y, x with x fastest. Element e of a
/// message is cell e % cells of variable e / cells, whatever the variables' sizes; its bytes lie
/// in the variable's section of the buffer. Elements move as raw bytes: nothing converts them.
///
/// Preconditions (not checked here: these run on the GPU, without exceptions):
///   fields.variable_count >= layout.variable_count and their element sizes agree, every box lies
///   inside the field, buffer + layout.buffer_offset is 16-byte aligned less buffer_offset and
///   holds layout.bytes() bytes, a message holds fewer than 2^31 elements.
#pragma once

#include <cstddef>
#include <cstdint>

#include "haloflag/kernels/field_set.hpp"
#include "haloflag/notify/portability.hpp"
#include "haloflag/kernels/message_layout.hpp"

namespace haloflag::kernels {

/// Elements one thread moves per round: all its loads of a round are issued before any of its
/// stores. A GPU reading a message from host memory waits a PCIe round trip per load, so loads
/// kept apart from the stores (the compiler may not reorder them: the buffers might alias)
/// overlap their latencies instead of adding them up. A round spans variables and boxes, so a
/// 1024-thread block moves a message of up to 8192 elements in one round trip, rather than one
/// round trip per variable of a message with several. Public, so that a calibration can time
/// copies in the same pattern.
inline constexpr int kElementsInFlight = 8;

namespace detail {

/// Byte offset in the variable of cell `cell` of `box` (x fastest). Halo boxes hold far fewer than
/// 2^31 cells, so the divisions run in 32 bits, which GPUs do much faster than 64-bit ones.
HF_HD inline std::int64_t cell_offset(const VariableView& variable, const Box& box,
                                      std::uint32_t cell) {
  const auto row = static_cast<std::uint32_t>(box.extent[0]);
  const auto plane = static_cast<std::uint32_t>(box.extent[0] * box.extent[1]);
  const std::uint32_t z = cell / plane;
  const std::uint32_t y = (cell - z * plane) / row;
  const std::uint32_t x = cell - z * plane - y * row;
  return (box.begin[2] + z) * variable.stride[2] + (box.begin[1] + y) * variable.stride[1] +
         (box.begin[0] + x) * variable.stride[0];
}

/// Where element `e` of a message (buffer order), or one of its bytes, lies.
struct Place {
  std::byte* address;
};

/// Byte position of element `e` in its message: its variable's section, then its cell.
HF_HD inline std::int64_t element_position(const MessageLayout& layout, std::uint32_t cells,
                                           std::uint32_t e) {
  if (layout.uniform_bytes != 0) return std::int64_t{e} * layout.uniform_bytes;
  const std::uint32_t variable = e / cells;
  const std::uint32_t cell = e - variable * cells;
  return layout.section_offset(static_cast<int>(variable)) +
         std::int64_t{cell} * layout.element_bytes[variable];
}

/// The side of a move that is the field: element e is a cell of a variable.
struct FieldSide {
  const MessageLayout* layout;
  const FieldSet* fields;
  std::uint32_t cells;  ///< layout->cells_per_variable()
  /// Cell `cell` (over the boxes in order) of `variable`.
  HF_HD std::byte* cell_address(std::uint32_t variable, std::uint32_t cell) const {
    int b = 0;
    for (; b + 1 < layout->box_count; ++b) {
      const auto box_cells = static_cast<std::uint32_t>(layout->boxes[b].cells());
      if (cell < box_cells) break;
      cell -= box_cells;
    }
    const VariableView& view = fields->variables[variable];
    return view.base + cell_offset(view, layout->boxes[b], cell);
  }
  HF_HD Place place(std::uint32_t e) const {
    const std::uint32_t variable = e / cells;
    return {cell_address(variable, e - variable * cells)};
  }
  /// Byte `position` of the message (word-by-word moves): its variable, cell and byte within.
  HF_HD Place place_of_byte(std::int64_t position) const {
    std::uint32_t variable = 0;
    std::int64_t section_bytes = std::int64_t{layout->element_bytes[0]} * cells;
    while (position >= section_bytes) {
      position -= section_bytes;
      ++variable;
      section_bytes = std::int64_t{layout->element_bytes[variable]} * cells;
    }
    const auto bytes = static_cast<std::uint32_t>(layout->element_bytes[variable]);
    const auto within = static_cast<std::uint32_t>(position);
    const std::uint32_t cell = within / bytes;
    return {cell_address(variable, cell) + (within - cell * bytes)};
  }
};

/// The side of a move that is the message in a buffer, addressed by byte: the word-by-word moves
/// take it as it is, the uniform ones as a UniformBufferSide.
struct BufferSide {
  std::byte* message;  ///< the message's first byte
  HF_HD Place place_of_byte(std::int64_t position) const { return {message + position}; }
};

/// A buffer side whose elements all have `Bytes` bytes: element e lies e * Bytes into the message.
/// The uniform moves address the buffer by multiplication alone, with none of the mixed sizes'
/// section lookup: the compiler cannot drop that lookup for them itself, since every store may
/// have changed the layout it reads, and it made every packing kernel's machine code several
/// times longer (docs/design.md, "Fields and messages").
template <int Bytes>
struct UniformBufferSide {
  std::byte* message;  ///< the message's first byte
  HF_HD Place place(std::uint32_t e) const { return {message + std::int64_t{e} * Bytes}; }
};

/// A side as a uniform move of `Bytes`-byte elements addresses it: a field side as it is, a
/// buffer side by multiplication alone.
template <int Bytes>
HF_HD const FieldSide& uniform_side(const FieldSide& side) {
  return side;
}
template <int Bytes>
HF_HD UniformBufferSide<Bytes> uniform_side(const BufferSide& side) {
  return {side.message};
}

/// A side addressed by words of `Word` bytes of the message instead of by elements: elements of
/// any size and mixed variables move word by word.
template <class Side, int Word>
struct WordsOf {
  const Side* side;
  HF_HD Place place(std::uint32_t w) const { return side->place_of_byte(std::int64_t{w} * Word); }
};

/// One element (or word) held between its load and its store: one access of Unit.
template <class Unit>
struct Held {
  Unit value;
  HF_HD void load(const Place& from) { value = *reinterpret_cast<const Unit*>(from.address); }
  HF_HD void store(const Place& to) const { *reinterpret_cast<Unit*>(to.address) = value; }
};

/// Units [begin, end) moved from one side to the other, this thread's from `begin` on every
/// `stride`-th, in rounds of kElementsInFlight loads then kElementsInFlight stores.
template <class Unit, class From, class To>
HF_HD void move_range(const From& from, const To& to, std::uint32_t begin, std::uint32_t end,
                      std::uint32_t stride) {
  for (std::uint32_t base = begin; base < end; base += stride * kElementsInFlight) {
    Held<Unit> values[kElementsInFlight];
    HF_UNROLL
    for (int k = 0; k < kElementsInFlight; ++k) {
      const std::uint32_t e = base + static_cast<std::uint32_t>(k) * stride;
      if (e < end) values[k].load(from.place(e));
    }
    HF_UNROLL
    for (int k = 0; k < kElementsInFlight; ++k) {
      const std::uint32_t e = base + static_cast<std::uint32_t>(k) * stride;
      if (e < end) values[k].store(to.place(e));
    }
  }
}

/// The same one unit at a time, for the word-by-word moves: their address arithmetic unrolled
/// eight times, in every kernel that packs, made the GPU compile far longer, for types and
/// layouts that are rare.
template <class Unit, class From, class To>
HF_HD void move_one_by_one(const From& from, const To& to, std::uint32_t begin, std::uint32_t end,
                           std::uint32_t stride) {
  for (std::uint32_t u = begin; u < end; u += stride) {
    Held<Unit> value;
    value.load(from.place(u));
    value.store(to.place(u));
  }
}

/// Elements [first, end) of a message moved from one side to the other by a group in which this
/// thread is `lane` of `stride`, with the widest access the message and both sides allow: one
/// access per element when its variables are all doubles or all 4-byte types (float, int32),
/// else 4-byte words of the message's bytes where everything is 4-byte aligned (12- and 16-byte
/// structures, mixed types), else bytes. `alignment`: the smallest FieldSet::alignment or
/// MessageLayout::alignment of the sides.
///
/// Inline, as the one loop before element types was: out of line, every thread of a fused
/// kernel's grid made a call per message with the FieldSet copied to its stack, which made
/// comb_fused several times slower (docs/results/h200x2/2026-11-27_element_types).
template <class From, class To>
HF_HD void move_elements_between(const From& from, const To& to, const MessageLayout& layout,
                                 int alignment, std::uint32_t first, std::uint32_t lane,
                                 std::uint32_t end, std::uint32_t stride) {
  const int uniform = layout.uniform_bytes;
  if (uniform == 8 && alignment >= 8) {
    return move_range<std::uint64_t>(uniform_side<8>(from), uniform_side<8>(to), first + lane,
                                     end, stride);
  }
  if (uniform == 4 && alignment >= 4) {
    return move_range<std::uint32_t>(uniform_side<4>(from), uniform_side<4>(to), first + lane,
                                     end, stride);
  }
  const auto cells = static_cast<std::uint32_t>(layout.cells_per_variable());
  const std::int64_t begin_byte = element_position(layout, cells, first);
  const std::int64_t end_byte = element_position(layout, cells, end);
  if (alignment >= 4) {
    return move_one_by_one<std::uint32_t>(WordsOf<From, 4>{&from}, WordsOf<To, 4>{&to},
                                          static_cast<std::uint32_t>(begin_byte / 4) + lane,
                                          static_cast<std::uint32_t>(end_byte / 4), stride);
  }
  move_one_by_one<std::uint8_t>(WordsOf<From, 1>{&from}, WordsOf<To, 1>{&to},
                                static_cast<std::uint32_t>(begin_byte) + lane,
                                static_cast<std::uint32_t>(end_byte), stride);
}

HF_HD constexpr int smaller(int a, int b) { return a < b ? a : b; }

/// A FieldSet's alignment as the kernels trust it: 0 (not computed) is taken as bytes.
HF_HD constexpr int trusted_alignment(const FieldSet& fields) {
  return fields.alignment > 0 ? fields.alignment : 1;
}

/// This thread's first element of the message: thread t starts where the whole buffer's t-th
/// element would fall, so consecutive threads move consecutive elements and a group much larger
/// than one message (the stacked grid) spreads the messages over different threads. Any such
/// rotation gives each element to one thread, so 32 bits of the offset do. In 32-bit arithmetic
/// from the layout's buffer_element: each thread of a fused kernel moves about one element, so
/// 64-bit divisions here were much of its work (docs/design.md, "Fields and messages").
HF_HD inline std::uint32_t first_element(const MessageLayout& layout, int group_thread,
                                         int group_size) {
  const auto size = static_cast<std::uint32_t>(group_size);
  const std::uint32_t rotation = layout.buffer_element % size;
  return (static_cast<std::uint32_t>(group_thread) + size - rotation) % size;
}

}  // namespace detail

/// Copies the message's cells from the field into `message`, the start of its data.
HF_HD inline void pack_message_at(const MessageLayout& layout, const FieldSet& fields,
                                  std::byte* message, int group_thread, int group_size) {
  const auto cells = static_cast<std::uint32_t>(layout.cells_per_variable());
  detail::move_elements_between(
      detail::FieldSide{&layout, &fields, cells}, detail::BufferSide{message},
      layout, detail::smaller(layout.alignment, detail::trusted_alignment(fields)),
      0, detail::first_element(layout, group_thread, group_size),
      static_cast<std::uint32_t>(layout.element_count()), static_cast<std::uint32_t>(group_size));
}

/// Copies the message from `message`, the start of its data, into the field's cells.
HF_HD inline void unpack_message_from(const MessageLayout& layout, const FieldSet& fields,
                                      const std::byte* message, int group_thread,
                                      int group_size) {
  const auto cells = static_cast<std::uint32_t>(layout.cells_per_variable());
  detail::move_elements_between(
      detail::BufferSide{const_cast<std::byte*>(message)},
      detail::FieldSide{&layout, &fields, cells}, layout,
      detail::smaller(layout.alignment, detail::trusted_alignment(fields)),
      0, detail::first_element(layout, group_thread, group_size),
      static_cast<std::uint32_t>(layout.element_count()), static_cast<std::uint32_t>(group_size));
}

/// The same with the message at buffer + layout.buffer_offset.
HF_HD inline void pack_message(const MessageLayout& layout, const FieldSet& fields,
                               std::byte* buffer, int group_thread, int group_size) {
  pack_message_at(layout, fields, buffer + layout.buffer_offset, group_thread, group_size);
}

/// Unpacks the message at buffer + layout.buffer_offset.
HF_HD inline void unpack_message(const MessageLayout& layout, const FieldSet& fields,
                                 const std::byte* buffer, int group_thread, int group_size) {
  unpack_message_from(layout, fields, buffer + layout.buffer_offset, group_thread, group_size);
}

}  // namespace haloflag::kernels
