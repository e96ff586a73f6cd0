/// @file
/// A group moving a range of one message's elements: from this rank's cells into another
/// FieldSet's cells (a peer's ghost cells for node, this rank's own for self) or into a buffer,
/// and from a buffer into cells. Shared by the transports whose routes move pieces
/// (transports/node/, transports/self/).
#pragma once

#include <cstdint>

#include "haloflag/kernels/block_waits.hpp"
#include "haloflag/kernels/field_set.hpp"
#include "haloflag/kernels/message_layout.hpp"
#include "haloflag/kernels/pack_unpack.hpp"
#include "haloflag/notify/portability.hpp"

namespace haloflag::kernels::detail {

/// One send piece of the piece grid, where the transport carrying it says it goes: elements
/// [first, end) of send `message`, into the `target` cells of `to`, or into `buffer` (the
/// message's start) when `to` is null, or as flagged words into `lines` (the receiver's set of
/// words of the epoch, transports/node/node_lines.hpp) when that is not null.
struct SendPiece {
  std::uint32_t message = 0;
  std::uint32_t first = 0;
  std::uint32_t end = 0;
  const MessageLayout* target = nullptr;
  const FieldSet* to = nullptr;
  std::byte* buffer = nullptr;
  std::uint64_t* lines = nullptr;
};

/// Elements [first, end) of a message moved by one group from `source` cells of `from` to the
/// `target` cells of `to`, or to `buffer`, the message's start in a buffer (buffer order), when
/// `to` is null. Thread t moves elements first + t + k * size, all loads of a round before its
/// stores (pack_unpack.hpp). The target cells are addressed through `to`'s own strides.
template <ExchangeGroup Group>
HF_HD void move_elements(const Group& group, const MessageLayout& source, const FieldSet& from,
                         std::uint32_t first, std::uint32_t end, const MessageLayout& target,
                         const FieldSet* to, std::byte* buffer) {
  const auto cells = static_cast<std::uint32_t>(source.cells_per_variable());
  const FieldSide from_side{&source, &from, cells};
  const int from_alignment = smaller(source.alignment, trusted_alignment(from));
  const auto lane = static_cast<std::uint32_t>(group.thread());
  const auto size = static_cast<std::uint32_t>(group.size());
  if (to != nullptr) {
    move_elements_between(from_side, FieldSide{&target, to, cells}, source,
                          smaller(from_alignment, trusted_alignment(*to)), first, lane, end, size);
  } else {
    move_elements_between(from_side, BufferSide{buffer}, source,
                          smaller(from_alignment, target.alignment), first, lane, end, size);
  }
}

/// Elements [first, end) of a receive unpacked from `buffer`, the message's start, into
/// `layout`'s cells of `to`.
template <ExchangeGroup Group>
HF_HD void unpack_elements(const Group& group, const MessageLayout& layout, const FieldSet& to,
                           std::uint32_t first, std::uint32_t end, const std::byte* buffer) {
  const auto cells = static_cast<std::uint32_t>(layout.cells_per_variable());
  move_elements_between(BufferSide{const_cast<std::byte*>(buffer)},
                        FieldSide{&layout, &to, cells}, layout,
                        smaller(layout.alignment, trusted_alignment(to)), first,
                        static_cast<std::uint32_t>(group.thread()), end,
                        static_cast<std::uint32_t>(group.size()));
}

}  // namespace haloflag::kernels::detail
