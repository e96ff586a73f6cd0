/// @file
/// Sends that update their own cells first (docs/embedding.md, "Sends that update their
/// cells"): the caller's kernel passes embedded_exchange_start a callable that writes a cell's
/// new value, and each group calls it on the cells of the sends it moves, just before moving
/// them. The caller's grid then needs no barrier between its boundary update and the start:
/// a cell that a send reads was written by the group that sends it.
#pragma once

#include <cstdint>
#include <type_traits>

#include "haloflag/kernels/block_waits.hpp"
#include "haloflag/kernels/field_set.hpp"
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

}  // namespace haloflag::kernels
