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
/// A word holds message bytes [4w, 4w + 4) in buffer order (pack_unpack.hpp). Elements of 8
/// bytes move as a pair of words in one 16-byte store; others word by word, gathered byte by
/// byte where the fields are not 4-byte aligned. Every element size must be a multiple of 4
/// (halo::detail::peer_takes_lines), so that a piece of whole elements is whole words.
#pragma once

#include <cstddef>
#include <cstdint>

#include "haloflag/kernels/block_waits.hpp"
#include "haloflag/kernels/field_set.hpp"
#include "haloflag/kernels/message_layout.hpp"
#include "haloflag/kernels/pack_unpack.hpp"
#include "haloflag/kernels/transports/node/node_route.hpp"
#include "haloflag/notify/flagged_words.hpp"
#include "haloflag/notify/portability.hpp"

namespace haloflag::kernels {

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

/// Bytes [4w, 4w + 4) of the message on the field side, gathered one byte at a time.
HF_HD inline std::uint32_t gather_word(const FieldSide& side, std::uint32_t w) {
  std::uint32_t word = 0;
  for (std::uint32_t b = 0; b < 4; ++b) {
    const auto byte = static_cast<std::uint32_t>(*side.place_of_byte(std::int64_t{w} * 4 + b).address);
    word |= byte << (8 * b);
  }
  return word;
}

/// The same bytes scattered back into the cells.
HF_HD inline void scatter_word(const FieldSide& side, std::uint32_t w, std::uint32_t word) {
  for (std::uint32_t b = 0; b < 4; ++b) {
    *side.place_of_byte(std::int64_t{w} * 4 + b).address = static_cast<std::byte>(word >> (8 * b));
  }
}

/// The words of elements [first, end): element size 8 gives two words an element (the pair),
/// else the words of its bytes.
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
/// the receiver's set of that epoch (lines_of_epoch). The group's barrier and a count follow
/// only for the piece grid's own bookkeeping: the words need neither.
template <ExchangeGroup Group>
HF_HD void put_lines(const Group& group, const MessageLayout& layout, const FieldSet& fields,
                     std::uint32_t first, std::uint32_t end, std::uint64_t* lines,
                     std::uint64_t epoch) {
  const auto cells = static_cast<std::uint32_t>(layout.cells_per_variable());
  const detail::FieldSide side{&layout, &fields, cells};
  const auto lane = static_cast<std::uint32_t>(group.thread());
  const auto stride = static_cast<std::uint32_t>(group.size());
  const int alignment = detail::trusted_alignment(fields);
  if (layout.uniform_bytes == 8 && alignment >= 8) {
    for (std::uint32_t e = first + lane; e < end; e += stride) {
      const std::uint64_t value = *reinterpret_cast<const std::uint64_t*>(side.place(e).address);
      notify::store_flagged_pair(lines + 2 * std::uint64_t{e},
                                 notify::flagged_word(static_cast<std::uint32_t>(value), epoch),
                                 notify::flagged_word(static_cast<std::uint32_t>(value >> 32), epoch));
    }
    return;
  }
  if (layout.uniform_bytes == 4 && alignment >= 4) {
    for (std::uint32_t e = first + lane; e < end; e += stride) {
      const std::uint32_t value = *reinterpret_cast<const std::uint32_t*>(side.place(e).address);
      notify::store_flagged_word(lines + e, notify::flagged_word(value, epoch));
    }
    return;
  }
  const detail::WordRange words = detail::words_of_elements(layout, first, end);
  for (std::uint32_t w = words.begin + lane; w < words.end; w += stride) {
    notify::store_flagged_word(lines + w, notify::flagged_word(detail::gather_word(side, w), epoch));
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
  const auto cells = static_cast<std::uint32_t>(layout.cells_per_variable());
  const detail::FieldSide side{&layout, &fields, cells};
  const auto lane = static_cast<std::uint32_t>(group.thread());
  const auto stride = static_cast<std::uint32_t>(group.size());
  const int alignment = detail::trusted_alignment(fields);
  if (layout.uniform_bytes == 8 && alignment >= 8) {
    for (std::uint32_t e = first + lane; e < end; e += stride) {
      std::uint64_t low = 0;
      std::uint64_t high = 0;
      if (!notify::wait_flagged_pair(lines + 2 * std::uint64_t{e}, epoch, how, low, high)) return false;
      *reinterpret_cast<std::uint64_t*>(side.place(e).address) =
          std::uint64_t{notify::word_data(low)} | (std::uint64_t{notify::word_data(high)} << 32);
    }
    return true;
  }
  if (layout.uniform_bytes == 4 && alignment >= 4) {
    for (std::uint32_t e = first + lane; e < end; e += stride) {
      std::uint64_t word = 0;
      if (!notify::wait_flagged_word(lines + e, epoch, how, word)) return false;
      *reinterpret_cast<std::uint32_t*>(side.place(e).address) = notify::word_data(word);
    }
    return true;
  }
  const detail::WordRange words = detail::words_of_elements(layout, first, end);
  for (std::uint32_t w = words.begin + lane; w < words.end; w += stride) {
    std::uint64_t word = 0;
    if (!notify::wait_flagged_word(lines + w, epoch, how, word)) return false;
    detail::scatter_word(side, w, notify::word_data(word));
  }
  return true;
}

}  // namespace haloflag::kernels
