/// @file
/// Sends that update their own cells (docs/embedding.md, "Sends that update their
/// cells"): the caller's kernel passes embedded_exchange_start a callable that writes a cell's
/// new value, and each group calls it on the cells of the sends it moves, as it moves them.
/// The caller's grid then needs no barrier between its boundary update and the start: a cell
/// that a send reads was written by the group that sends it.
///
/// Where the piece's elements move one per thread access (uniform 4- or 8-byte elements, the
/// common case), the thread that moves an element updates its cell in the same pass and stores
/// the value into the target, with no group barrier and no second read between the two
/// (move_sent_elements); elsewhere the group updates them all first, behind its barrier.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "haloflag/kernels/block_waits.hpp"
#include "haloflag/kernels/field_set.hpp"
#include "haloflag/kernels/group_moves.hpp"
#include "haloflag/kernels/message_layout.hpp"
#include "haloflag/kernels/pack_unpack.hpp"
#include "haloflag/notify/portability.hpp"

namespace haloflag::kernels {

/// The default: the sends move the cells as the fields hold them, and the caller's grid has
/// updated them before the start (behind a grid barrier).
struct NoCellUpdate {
  /// Leaves the cell as it is.
  HF_HD void operator()(std::uint32_t /*variable*/, std::byte* /*cell*/) const {}
};

/// Whether `Update` writes cells (any callable but NoCellUpdate).
template <class Update>
inline constexpr bool kUpdatesCells = !std::is_same_v<Update, NoCellUpdate>;

/// The group calls `update(variable, cell)` on the cell of each element [first, end) of a send
/// laid out by `layout` in `fields`, then meets at its barrier, so that the move that follows,
/// which gives the elements to the threads in another order, reads the new values. An element
/// in two sends is updated by each: `update` must write the same value every time. Nothing for
/// NoCellUpdate.
template <class Update, ExchangeGroup Group>
HF_HD void update_sent_cells(const Group& group, const MessageLayout& layout,
                             const FieldSet& fields, std::uint32_t first, std::uint32_t end,
                             const Update& update) {
  if constexpr (kUpdatesCells<Update>) {
    const auto cells = static_cast<std::uint32_t>(layout.cells_per_variable());
    const detail::FieldSide side{&layout, &fields, cells};
    const auto size = static_cast<std::uint32_t>(group.size());
    for (auto e = first + static_cast<std::uint32_t>(group.thread()); e < end; e += size) {
      const std::uint32_t variable = e / cells;
      update(variable, side.cell_address(variable, e - variable * cells));
    }
    group.sync();
  } else {
    (void)group;
    (void)layout;
    (void)fields;
    (void)first;
    (void)end;
    (void)update;
  }
}

namespace detail {

/// Whether an update that returns `Value` hands a move of `Unit`s the value itself.
template <class Value, class Unit>
inline constexpr bool kHandsOver = [] {
  if constexpr (std::is_void_v<Value>) {
    return false;
  } else {
    return sizeof(Value) == sizeof(Unit) && std::is_trivially_copyable_v<Value>;
  }
}();

/// Updates the cell of element `e` of `from` and returns its new value as a Unit: the value
/// `update` returns, else this thread's own store loaded back (which needs no barrier).
template <class Unit, class Update>
HF_HD Unit updated_unit(const FieldSide& from, std::uint32_t e, const Update& update) {
  const std::uint32_t variable = e / from.cells;
  std::byte* cell = from.cell_address(variable, e - variable * from.cells);
  using Value = decltype(update(variable, cell));
  if constexpr (kHandsOver<Value, Unit>) {
    const Value value = update(variable, cell);
    Unit bits;
    std::memcpy(&bits, &value, sizeof(Unit));
    return bits;
  } else {
    update(variable, cell);
    return *reinterpret_cast<const Unit*>(cell);
  }
}

/// Elements [begin, end), every `stride`-th, each updated and then stored into `to`. One at a
/// time, unlike move_range's rounds: an update's loads cannot pass the previous update's store
/// (the compiler cannot tell the fields apart), so unrolling would only copy the update's code.
template <class Unit, class To, class Update>
HF_HD void update_and_move_range(const FieldSide& from, const To& to, std::uint32_t begin,
                                 std::uint32_t end, std::uint32_t stride, const Update& update) {
  for (std::uint32_t e = begin; e < end; e += stride) {
    const Unit value = updated_unit<Unit>(from, e, update);
    *reinterpret_cast<Unit*>(to.place(e).address) = value;
  }
}

/// Elements [first, end) of a send, each updated and moved by the same thread in one pass, as
/// move_elements would move them. False, with nothing done, where the elements move word by
/// word: the words of an element are then not all one thread's.
template <class Update>
HF_HD bool move_updated_elements(const MessageLayout& source, const FieldSet& from,
                                 std::uint32_t first, std::uint32_t end,
                                 const MessageLayout& target, const FieldSet* to,
                                 std::byte* buffer, std::uint32_t lane, std::uint32_t size,
                                 const Update& update) {
  const auto cells = static_cast<std::uint32_t>(source.cells_per_variable());
  const int alignment =
      smaller(smaller(source.alignment, trusted_alignment(from)),
              to != nullptr ? trusted_alignment(*to) : target.alignment);
  const int uniform = source.uniform_bytes;
  if ((uniform != 4 && uniform != 8) || alignment < uniform) return false;
  const FieldSide updated{&source, &from, cells};
  const auto move_to = [&](const auto& to_side) {
    if (uniform == 8) {
      update_and_move_range<std::uint64_t>(updated, uniform_side<8>(to_side), first + lane, end,
                                           size, update);
    } else {
      update_and_move_range<std::uint32_t>(updated, uniform_side<4>(to_side), first + lane, end,
                                           size, update);
    }
  };
  if (to != nullptr) {
    move_to(FieldSide{&target, to, cells});
  } else {
    move_to(BufferSide{buffer});
  }
  return true;
}

}  // namespace detail

/// The group moves elements [first, end) of a send as move_elements does (group_moves.hpp),
/// each cell updated by `update` first: in the same pass where it can
/// (detail::move_updated_elements), else all of them before the move, behind the group's
/// barrier. With NoCellUpdate, move_elements itself.
template <class Update, ExchangeGroup Group>
HF_HD void move_sent_elements(const Group& group, const MessageLayout& source,
                              const FieldSet& from, std::uint32_t first, std::uint32_t end,
                              const MessageLayout& target, const FieldSet* to, std::byte* buffer,
                              const Update& update) {
  if constexpr (kUpdatesCells<Update>) {
    if (detail::move_updated_elements(source, from, first, end, target, to, buffer,
                                      static_cast<std::uint32_t>(group.thread()),
                                      static_cast<std::uint32_t>(group.size()), update)) {
      return;
    }
    update_sent_cells(group, source, from, first, end, update);
  }
  detail::move_elements(group, source, from, first, end, target, to, buffer);
}

}  // namespace haloflag::kernels
