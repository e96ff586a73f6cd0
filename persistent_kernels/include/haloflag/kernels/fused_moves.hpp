/// @file
/// The fused (Comb) pack and unpack kernels' moves, shared by comb_fused, comb_graph and nccl.
///
/// A message's buffer is cut into 16-byte chunks and each thread of the message's grid moves
/// whole chunks: consecutive threads store (pack) or load (unpack) consecutive 16 bytes of the
/// buffer, one 16-byte access each, which is the form that reaches the copy rate in device
/// memory and across NVLink into a peer's buffer. The field side moves the chunk's elements:
/// those of one chunk lie in one row (x fastest) unless the chunk crosses a row's end, so
/// consecutive threads read consecutive addresses along the contiguous axis, with one 16-byte
/// access where the row is dense and 16-byte aligned there.
///
/// Only messages whose elements all have one size of 1, 2, 4, 8 or 16 bytes, at a 16-byte
/// aligned place in the buffer, in fields aligned to that size, move by chunks; the others
/// (mixed or odd sizes, byte-aligned fields) take the shared mover of pack_unpack.hpp, as before.
/// The host backend runs the same functions with one thread per message (thread 0 of 1).
#pragma once

#include <cstddef>
#include <cstdint>

#include "haloflag/kernels/field_set.hpp"
#include "haloflag/kernels/message_layout.hpp"
#include "haloflag/kernels/pack_unpack.hpp"
#include "haloflag/notify/portability.hpp"

namespace haloflag::kernels {

/// Bytes of the buffer one thread of a fused kernel moves at once.
inline constexpr int kFusedChunkBytes = 16;

namespace detail {

/// 16 bytes held between a chunk's loads and its stores. A union, so that its elements are
/// written and the whole read without breaking the host compiler's aliasing rules.
union alignas(kFusedChunkBytes) Chunk {
  std::uint64_t u64[2];
  std::uint32_t u32[4];
  std::uint16_t u16[8];
  std::uint8_t u8[16];
};

/// The access of one `Bytes`-byte element, and element k of a chunk as that type.
template <int Bytes>
struct AccessUnit;
template <>
struct AccessUnit<1> {
  using type = std::uint8_t;
  HF_HD static type& in(Chunk& chunk, int k) { return chunk.u8[k]; }
};
template <>
struct AccessUnit<2> {
  using type = std::uint16_t;
  HF_HD static type& in(Chunk& chunk, int k) { return chunk.u16[k]; }
};
template <>
struct AccessUnit<4> {
  using type = std::uint32_t;
  HF_HD static type& in(Chunk& chunk, int k) { return chunk.u32[k]; }
};
template <>
struct AccessUnit<8> {
  using type = std::uint64_t;
  HF_HD static type& in(Chunk& chunk, int k) { return chunk.u64[k]; }
};
template <>
struct AccessUnit<16> {
  using type = Chunk;
  HF_HD static type& in(Chunk& chunk, int) { return chunk; }
};

/// Where element `e` of a message lies in the field, and how many elements from it on share
/// its row (the rest of the row's x extent): the chunk's elements lie in one row when it has
/// as many.
struct RowPlace {
  std::byte* address;
  std::uint32_t left_in_row;
  std::int64_t step;  ///< bytes to the next element of the row (the variable's x stride)
};

HF_HD inline RowPlace row_place(const MessageLayout& layout, const FieldSet& fields,
                                std::uint32_t cells, std::uint32_t e) {
  const std::uint32_t variable = e / cells;
  std::uint32_t cell = e - variable * cells;
  int b = 0;
  for (; b + 1 < layout.box_count; ++b) {
    const auto box_cells = static_cast<std::uint32_t>(layout.boxes[b].cells());
    if (cell < box_cells) break;
    cell -= box_cells;
  }
  const VariableView& view = fields.variables[variable];
  const auto row = static_cast<std::uint32_t>(layout.boxes[b].extent[0]);
  return {view.base + cell_offset(view, layout.boxes[b], cell), row - cell % row, view.stride[0]};
}

/// Whether the message moves by chunks (see the file's comment); its element size when it does,
/// else 0.
HF_HD inline int chunk_element_bytes(const MessageLayout& layout, const FieldSet& fields) {
  const int bytes = layout.uniform_bytes;
  if (bytes == 0 || layout.buffer_offset % kFusedChunkBytes != 0) return 0;
  return trusted_alignment(fields) >= bytes ? bytes : 0;
}

/// The `Bytes`-byte elements of one whole chunk, starting at element `e`, between the field and
/// `chunk`: one 16-byte access where they lie densely in one row at a 16-byte aligned address,
/// else one access per element.
template <int Bytes, bool Pack>
HF_HD void move_chunk_elements(const MessageLayout& layout, const FieldSet& fields,
                               std::uint32_t cells, std::uint32_t e, Chunk& chunk) {
  using Access = AccessUnit<Bytes>;
  using Unit = typename Access::type;
  constexpr int kCount = kFusedChunkBytes / Bytes;
  const RowPlace place = row_place(layout, fields, cells, e);
  if (place.left_in_row >= static_cast<std::uint32_t>(kCount)) {
    const auto at = reinterpret_cast<std::uintptr_t>(place.address);
    if (place.step == Bytes && at % kFusedChunkBytes == 0) {
      Chunk* whole = reinterpret_cast<Chunk*>(place.address);
      if (Pack) chunk = *whole; else *whole = chunk;
      return;
    }
    HF_UNROLL
    for (int k = 0; k < kCount; ++k) {
      Unit* unit = reinterpret_cast<Unit*>(place.address + k * place.step);
      if (Pack) Access::in(chunk, k) = *unit; else *unit = Access::in(chunk, k);
    }
    return;
  }
  for (int k = 0; k < kCount; ++k) {  // the chunk crosses a row's end
    const RowPlace one = k == 0 ? place : row_place(layout, fields, cells, e + k);
    Unit* unit = reinterpret_cast<Unit*>(one.address);
    if (Pack) Access::in(chunk, k) = *unit; else *unit = Access::in(chunk, k);
  }
}

/// The chunks of a message this thread (`thread` of `threads`) moves, then, for the last
/// partial chunk, its elements one by one (by thread 0).
template <int Bytes, bool Pack>
HF_HD void move_by_chunks(const MessageLayout& layout, const FieldSet& fields,
                          std::byte* message, std::uint32_t thread, std::uint32_t threads) {
  using Unit = typename AccessUnit<Bytes>::type;
  constexpr auto kCount = static_cast<std::uint32_t>(kFusedChunkBytes / Bytes);
  const auto cells = static_cast<std::uint32_t>(layout.cells_per_variable());
  const auto elements = static_cast<std::uint32_t>(layout.element_count());
  const std::uint32_t whole = elements / kCount;
  Chunk* chunks = reinterpret_cast<Chunk*>(message);
  for (std::uint32_t c = thread; c < whole; c += threads) {
    Chunk chunk;
    if (!Pack) chunk = chunks[c];
    move_chunk_elements<Bytes, Pack>(layout, fields, cells, c * kCount, chunk);
    if (Pack) chunks[c] = chunk;
  }
  if (thread != 0) return;
  Unit* units = reinterpret_cast<Unit*>(message);
  for (std::uint32_t e = whole * kCount; e < elements; ++e) {
    Unit* unit = reinterpret_cast<Unit*>(row_place(layout, fields, cells, e).address);
    if (Pack) units[e] = *unit; else *unit = units[e];
  }
}

/// One message of a fused kernel, packed (Pack) or unpacked, by chunks where it can be.
template <bool Pack>
HF_HD void fused_move(const MessageLayout& layout, const FieldSet& fields, std::byte* message,
                      std::uint32_t thread, std::uint32_t threads) {
  switch (chunk_element_bytes(layout, fields)) {
    case 1: return move_by_chunks<1, Pack>(layout, fields, message, thread, threads);
    case 2: return move_by_chunks<2, Pack>(layout, fields, message, thread, threads);
    case 4: return move_by_chunks<4, Pack>(layout, fields, message, thread, threads);
    case 8: return move_by_chunks<8, Pack>(layout, fields, message, thread, threads);
    case 16: return move_by_chunks<16, Pack>(layout, fields, message, thread, threads);
    default: break;
  }
  if (Pack) {
    pack_message_at(layout, fields, message, static_cast<int>(thread), static_cast<int>(threads));
  } else {
    unpack_message_from(layout, fields, message, static_cast<int>(thread),
                        static_cast<int>(threads));
  }
}

}  // namespace detail

/// Packs one message of a fused kernel into `message`, the start of its data.
HF_HD inline void fused_pack_message(const MessageLayout& layout, const FieldSet& fields,
                                     std::byte* message, std::uint32_t thread,
                                     std::uint32_t threads) {
  detail::fused_move<true>(layout, fields, message, thread, threads);
}

/// Unpacks one message of a fused kernel from `message`, the start of its data.
HF_HD inline void fused_unpack_message(const MessageLayout& layout, const FieldSet& fields,
                                       const std::byte* message, std::uint32_t thread,
                                       std::uint32_t threads) {
  detail::fused_move<false>(layout, fields, const_cast<std::byte*>(message), thread, threads);
}

/// Threads a fused kernel gives a message of `bytes` bytes: one per chunk.
HF_HD constexpr std::int64_t fused_threads_for(std::int64_t bytes) {
  return (bytes + kFusedChunkBytes - 1) / kFusedChunkBytes;
}

}  // namespace haloflag::kernels
