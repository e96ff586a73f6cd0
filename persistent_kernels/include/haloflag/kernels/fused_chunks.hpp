/// @file
/// The fused kernels' mover (comb_fused, comb_graph, nccl): a message's buffer in 16-byte chunks.
///
/// Thread t of a message's grid moves chunks t, t + threads, ... of the message: consecutive
/// threads take consecutive 16 bytes of the buffer, one 16-byte access each, which is what
/// reaches the copy rate in device memory and across NVLink into a peer's buffer. A chunk's
/// elements lie along the field's contiguous axis (x) until a row ends: where they lie densely
/// at a 16-byte aligned address they move in one 16-byte access too, else one access each.
///
/// A message moves by chunks when its elements all have one size of 1, 2, 4, 8 or 16 bytes, its
/// data start 16-byte aligned and the fields are aligned to the element size; any other message
/// takes the shared mover of pack_unpack.hpp. The host backend runs these same functions, each
/// thread of a lane as one thread of the grid.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "haloflag/kernels/field_set.hpp"
#include "haloflag/kernels/message_layout.hpp"
#include "haloflag/kernels/pack_unpack.hpp"
#include "haloflag/notify/portability.hpp"

namespace haloflag::kernels {

/// Bytes of a message's buffer that one thread of a fused kernel moves at once.
inline constexpr int kChunkBytes = 16;

namespace detail {

// Elements are taken out of a chunk's words by shifts, lowest address in the lowest bits.
static_assert(std::endian::native == std::endian::little);

/// A chunk held between its loads and its stores, as two words, so that on the GPU it stays in
/// registers whichever element a thread reaches (an array indexed at run time would not).
struct alignas(kChunkBytes) Chunk {
  std::uint64_t low;
  std::uint64_t high;
};

/// The unsigned integer of an element of `Bytes` bytes (1, 2, 4 or 8: smaller than a chunk).
template <int Bytes>
using ElementWord =
    std::conditional_t<Bytes == 1, std::uint8_t,
                       std::conditional_t<Bytes == 2, std::uint16_t,
                                          std::conditional_t<Bytes == 4, std::uint32_t,
                                                             std::uint64_t>>>;

/// Element k of a chunk of `Bytes`-byte elements.
template <int Bytes>
HF_HD ElementWord<Bytes> chunk_element(const Chunk& chunk, std::uint32_t k) {
  constexpr std::uint32_t kPerWord = 8 / Bytes;
  const std::uint64_t word = k < kPerWord ? chunk.low : chunk.high;
  return static_cast<ElementWord<Bytes>>(word >> ((k % kPerWord) * Bytes * 8));
}

/// Puts element k into a chunk whose bits there are still zero.
template <int Bytes>
HF_HD void add_chunk_element(Chunk& chunk, std::uint32_t k, ElementWord<Bytes> value) {
  constexpr std::uint32_t kPerWord = 8 / Bytes;
  const std::uint64_t bits = std::uint64_t{value} << ((k % kPerWord) * Bytes * 8);
  if (k < kPerWord) {
    chunk.low |= bits;
  } else {
    chunk.high |= bits;
  }
}

/// Where element `e` of a message lies in the field, and how its row goes on from there.
struct FieldRun {
  std::byte* address;
  std::uint32_t left;  ///< elements of the row from e on, e included
  std::int64_t step;   ///< bytes to the next element of the row (the variable's x stride)
};

HF_HD inline FieldRun field_run(const MessageLayout& layout, const FieldSet& fields,
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

/// One element between the field at `run` and a chunk (Pack: field to chunk), and `run` moved on
/// to the next element of the message.
template <int Bytes, bool Pack>
HF_HD void move_chunk_element(const MessageLayout& layout, const FieldSet& fields,
                              std::uint32_t cells, std::uint32_t e, FieldRun& run, Chunk& chunk,
                              std::uint32_t k) {
  using Word = ElementWord<Bytes>;
  if (run.left == 0) run = field_run(layout, fields, cells, e);
  auto* element = reinterpret_cast<Word*>(run.address);
  if constexpr (Pack) {
    add_chunk_element<Bytes>(chunk, k, *element);
  } else {
    *element = chunk_element<Bytes>(chunk, k);
  }
  run.address += run.step;
  --run.left;
}

/// The elements of whole chunk `first / (16 / Bytes)` between the field and `chunk`.
template <int Bytes, bool Pack>
HF_HD void move_chunk(const MessageLayout& layout, const FieldSet& fields, std::uint32_t cells,
                      std::uint32_t first, Chunk& chunk) {
  constexpr std::uint32_t kPerChunk = kChunkBytes / Bytes;
  FieldRun run = field_run(layout, fields, cells, first);
  const bool dense = run.step == Bytes && run.left >= kPerChunk &&
                     reinterpret_cast<std::uintptr_t>(run.address) % kChunkBytes == 0;
  if (Bytes == kChunkBytes || dense) {  // a 16-byte element is 16-byte aligned (chunk_bytes)
    auto* whole = reinterpret_cast<Chunk*>(run.address);
    if constexpr (Pack) {
      chunk = *whole;
    } else {
      *whole = chunk;
    }
    return;
  }
  if constexpr (Bytes < kChunkBytes) {
    for (std::uint32_t k = 0; k < kPerChunk; ++k) {
      move_chunk_element<Bytes, Pack>(layout, fields, cells, first + k, run, chunk, k);
    }
  }
}

/// This thread's chunks of a message, then the last partial chunk's elements one by one, by the
/// thread whose turn that chunk would be.
template <int Bytes, bool Pack>
HF_HD void move_by_chunks(const MessageLayout& layout, const FieldSet& fields, std::byte* message,
                          std::uint32_t thread, std::uint32_t threads) {
  constexpr std::uint32_t kPerChunk = kChunkBytes / Bytes;
  const auto cells = static_cast<std::uint32_t>(layout.cells_per_variable());
  const auto elements = static_cast<std::uint32_t>(layout.element_count());
  const std::uint32_t whole = elements / kPerChunk;
  auto* chunks = reinterpret_cast<Chunk*>(message);
  for (std::uint32_t c = thread; c < whole; c += threads) {
    Chunk chunk{0, 0};
    if constexpr (!Pack) chunk = chunks[c];
    move_chunk<Bytes, Pack>(layout, fields, cells, c * kPerChunk, chunk);
    if constexpr (Pack) chunks[c] = chunk;
  }
  if constexpr (Bytes < kChunkBytes) {
    if (whole * kPerChunk == elements || thread != whole % threads) return;
    // The partial chunk's elements go one access each: its bytes past the message's end are
    // not the message's, and may lie past the buffer's end.
    using Word = ElementWord<Bytes>;
    auto* words = reinterpret_cast<Word*>(message);
    FieldRun run{nullptr, 0, 0};
    for (std::uint32_t e = whole * kPerChunk; e < elements; ++e) {
      Chunk one{0, 0};
      if constexpr (!Pack) add_chunk_element<Bytes>(one, 0, words[e]);
      move_chunk_element<Bytes, Pack>(layout, fields, cells, e, run, one, 0);
      if constexpr (Pack) words[e] = chunk_element<Bytes>(one, 0);
    }
  }
}

/// The element size a message moves by chunks with (see the file's comment), or 0 when it takes
/// the shared mover.
HF_HD inline int chunk_bytes(const MessageLayout& layout, const FieldSet& fields,
                             const std::byte* message) {
  const int bytes = layout.uniform_bytes;
  if (bytes == 0 || reinterpret_cast<std::uintptr_t>(message) % kChunkBytes != 0) return 0;
  return trusted_alignment(fields) >= bytes ? bytes : 0;
}

/// One message of a fused kernel, packed (Pack) or unpacked, by chunks where it can be.
template <bool Pack>
HF_HD void fused_move(const MessageLayout& layout, const FieldSet& fields, std::byte* message,
                      std::uint32_t thread, std::uint32_t threads) {
  switch (chunk_bytes(layout, fields, message)) {
    case 1: return move_by_chunks<1, Pack>(layout, fields, message, thread, threads);
    case 2: return move_by_chunks<2, Pack>(layout, fields, message, thread, threads);
    case 4: return move_by_chunks<4, Pack>(layout, fields, message, thread, threads);
    case 8: return move_by_chunks<8, Pack>(layout, fields, message, thread, threads);
    case 16: return move_by_chunks<16, Pack>(layout, fields, message, thread, threads);
    default: break;
  }
  const auto group_thread = static_cast<int>(thread);
  const auto group_size = static_cast<int>(threads);
  if constexpr (Pack) {
    pack_message_at(layout, fields, message, group_thread, group_size);
  } else {
    unpack_message_from(layout, fields, message, group_thread, group_size);
  }
}

}  // namespace detail

/// Packs one message of a fused kernel into `message`, the start of its data; this thread is
/// `thread` of the `threads` that share the message.
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

/// Threads a fused kernel gives a message: one per chunk when its elements have one size (the
/// chunked moves), else one per element (the shared mover).
HF_HD constexpr std::int64_t fused_threads_for(const MessageLayout& layout) {
  if (layout.uniform_bytes == 0) return layout.element_count();
  return (layout.bytes() + kChunkBytes - 1) / kChunkBytes;
}

}  // namespace haloflag::kernels
