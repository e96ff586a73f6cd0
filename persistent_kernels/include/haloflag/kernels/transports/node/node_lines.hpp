/// @file
/// The node transport's lines (docs/design.md, "Lines"): a message to a peer that takes its
/// messages in lines travels as flagged words (notify/flagged_words.hpp), 4 bytes of the
/// message and the epoch's low 32 bits in each 8-byte word, stored straight into the receiver's
/// buffer. The receiver's threads each wait for their own words and unpack them: no release, no
/// count and no arrival word stand between the data and its reader.
///
/// Each receive has two sets of words, used by the epoch's parity: epoch e writes set e % 2,
/// while the receiver may still be reading set (e - 1) % 2. The sender may write a set again
/// once the receiver has unpacked what the epoch two before left in it; the receiver says so
/// into the sender's ghosts_free word, as its pieces of an epoch are unpacked, two epochs ahead
/// (node_pieces.hpp), so the sender normally finds it said long before.
///
/// A word holds message bytes [4w, 4w + 4) in buffer order (pack_unpack.hpp), moved in one
/// 4-byte access where the message is all 4- or all 8-byte elements in 4-byte aligned fields,
/// else byte by byte. Every element size must be a multiple of 4
/// (halo::detail::peer_takes_lines), so that a piece of whole elements is whole words.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "haloflag/kernels/block_waits.hpp"
#include "haloflag/kernels/field_set.hpp"
#include "haloflag/kernels/message_layout.hpp"
#include "haloflag/kernels/pack_unpack.hpp"
#include "haloflag/kernels/transports/node/node_route.hpp"
#include "haloflag/notify/flagged_words.hpp"
#include "haloflag/notify/portability.hpp"

namespace haloflag::kernels {

/// Whether a piece grid's build holds the lines' code. Where no node peer takes lines the
/// launched grids run the build without it: its registers would otherwise push the counted
/// route's kernels into spills (docs/design.md, "Lines").
enum class LinesCode { absent, present };

/// `body(build)` with the build that `plan` needs, a std::integral_constant of LinesCode (the
/// runners' one choice of a kernel's build).
template <class Body>
decltype(auto) in_lines_build(const ExchangePlan& plan, Body body) {
  if (plan.routes.node_lines) return body(std::integral_constant<LinesCode, LinesCode::present>{});
  return body(std::integral_constant<LinesCode, LinesCode::absent>{});
}

/// Flagged words of one set for a message of `bytes` bytes: one per 4 bytes, rounded up to a
/// pair so that every set starts 16-byte aligned.
HF_HD constexpr std::int64_t line_words(std::int64_t bytes) {
  const std::int64_t words = (bytes + 3) / 4;
  return words + (words & 1);
}

/// Bytes of a receive's buffer when its messages come in lines: both sets.
HF_HD constexpr std::int64_t line_buffer_bytes(std::int64_t message_bytes) {
  return static_cast<std::int64_t>(kLineParities) * line_words(message_bytes) *
         static_cast<std::int64_t>(sizeof(std::uint64_t));
}

/// The set of words of `epoch` in a receive's buffer.
HF_HD inline std::uint64_t* lines_of_epoch(std::byte* buffer, const MessageLayout& layout,
                                           std::uint64_t epoch) {
  return reinterpret_cast<std::uint64_t*>(buffer) + (epoch % kLineParities) * line_words(layout.bytes());
}

namespace detail {

/// Where word w of a message (its bytes [4w, 4w + 4)) lies in the cells, and whether its 4
/// bytes may move in one access: elements of 4 and 8 bytes in fields aligned to 4 are found by
/// multiplication (one word an element, or half of one); others byte by byte.
struct WordPlaces {
  FieldSide side;
  int element_bytes;  ///< 4 or 8 where the whole message is of that size, else 0
  bool whole_words;   ///< 4-byte accesses allowed

  HF_HD WordPlaces(const MessageLayout& layout, const FieldSet& fields)
      : side{&layout, &fields, static_cast<std::uint32_t>(layout.cells_per_variable())},
        element_bytes(layout.uniform_bytes == 4 || layout.uniform_bytes == 8 ? layout.uniform_bytes
                                                                              : 0),
        whole_words(trusted_alignment(fields) >= 4) {}

  /// The first byte of word w.
  HF_HD std::byte* word_at(std::uint32_t w) const {
    if (element_bytes == 4) return side.place(w).address;
    if (element_bytes == 8) return side.place(w / 2).address + 4 * (w % 2);
    return side.place_of_byte(std::int64_t{w} * 4).address;
  }
  /// Word w of the message, from the cells.
  HF_HD std::uint32_t load(std::uint32_t w) const {
    if (element_bytes != 0 && whole_words) return *reinterpret_cast<const std::uint32_t*>(word_at(w));
    std::uint32_t word = 0;
    for (std::uint32_t b = 0; b < 4; ++b) {
      word |= static_cast<std::uint32_t>(*side.place_of_byte(std::int64_t{w} * 4 + b).address)
              << (8 * b);
    }
    return word;
  }
  /// Word w of the message, into the cells.
  HF_HD void store(std::uint32_t w, std::uint32_t word) const {
    if (element_bytes != 0 && whole_words) {
      *reinterpret_cast<std::uint32_t*>(word_at(w)) = word;
      return;
    }
    for (std::uint32_t b = 0; b < 4; ++b) {
      *side.place_of_byte(std::int64_t{w} * 4 + b).address = static_cast<std::byte>(word >> (8 * b));
    }
  }
};

/// The words [begin, end) of elements [first, end) of a message (every element a multiple of 4
/// bytes, so a piece of whole elements is whole words).
struct WordRange {
  std::uint32_t begin;
  std::uint32_t end;
};
HF_HD inline WordRange words_of_elements(const MessageLayout& layout, std::uint32_t first,
                                         std::uint32_t end) {
  const auto cells = static_cast<std::uint32_t>(layout.cells_per_variable());
  return {static_cast<std::uint32_t>(element_position(layout, cells, first) / 4),
          static_cast<std::uint32_t>(element_position(layout, cells, end) / 4)};
}

}  // namespace detail

/// Elements [first, end) of a send stored by the group as `epoch`'s flagged words into `lines`,
/// the receiver's set of that epoch (lines_of_epoch): thread t takes words t, t + size, ... One
/// loop for every element type, so that the kernels that take lines hold one copy of it.
template <ExchangeGroup Group>
HF_HD void put_lines(const Group& group, const MessageLayout& layout, const FieldSet& fields,
                     std::uint32_t first, std::uint32_t end, std::uint64_t* lines,
                     std::uint64_t epoch) {
  const detail::WordPlaces places(layout, fields);
  const detail::WordRange words = detail::words_of_elements(layout, first, end);
  for (std::uint32_t w = words.begin + static_cast<std::uint32_t>(group.thread()); w < words.end;
       w += static_cast<std::uint32_t>(group.size())) {
    notify::store_flagged_word(lines + w, notify::flagged_word(places.load(w), epoch));
  }
}

/// Elements [first, end) of a receive unpacked by the group from `lines`, its set of `epoch`:
/// each thread waits for its own words to carry the epoch, then stores their data into its
/// cells. Returns false for a thread whose wait failed (recorded as `how` names it); the group
/// learns of it through device_wait_failed after its barrier.
template <ExchangeGroup Group>
HF_HD bool take_lines(const Group& group, const MessageLayout& layout, const FieldSet& fields,
                      std::uint32_t first, std::uint32_t end, const std::uint64_t* lines,
                      std::uint64_t epoch, const notify::FlaggedWait& how) {
  const detail::WordPlaces places(layout, fields);
  const detail::WordRange words = detail::words_of_elements(layout, first, end);
  for (std::uint32_t w = words.begin + static_cast<std::uint32_t>(group.thread()); w < words.end;
       w += static_cast<std::uint32_t>(group.size())) {
    std::uint64_t word = 0;
    if (!notify::wait_flagged_word(lines + w, epoch, how, word)) return false;
    places.store(w, notify::word_data(word));
  }
  return true;
}

}  // namespace haloflag::kernels
