// Internal: which of a receiver's node messages come through its buffer although the sender
// could store them straight into its ghost cells (AdvancedOptions::node_placement;
// docs/transports.md, "Placement by shape"). A plain function of the receiver's layout and
// fields: the receiver decides for each receive and tells the sender at set-up, so the two never
// disagree, and tests check it without MPI.
#pragma once

#include <cstdint>
#include <vector>

#include "haloflag/halo/strategy.hpp"
#include "haloflag/halo/transport.hpp"
#include "haloflag/kernels/field_set.hpp"
#include "haloflag/kernels/message_layout.hpp"

namespace haloflag::halo::detail {

// Rows of the receiver's cells shorter than this take one store per row across the link.
inline constexpr std::int64_t kDirectRowBytes = 64;

// The shortest run of consecutive bytes that the message's cells form in `fields`: for each box
// and variable, the box's x extent times the element where the variable's x stride is one
// element, else one element (interleaved variables).
std::int64_t shortest_row_bytes(const kernels::MessageLayout& layout,
                                const kernels::FieldSet& fields);

// Whether a rank takes a node peer's messages (`receives`, their layouts) in lines: the
// strategy's kernels move pieces, every element is a multiple of 4 bytes (a piece is whole
// flagged words) and they hold at most `up_to_bytes` bytes in all.
bool peer_takes_lines(const std::vector<kernels::MessageLayout>& receives, Strategy strategy,
                      std::int64_t up_to_bytes);

// Whether receive `layout` into `fields` comes through the receiver's buffer wherever its
// sender could place it directly.
bool receive_through_buffer(const kernels::MessageLayout& layout, const kernels::FieldSet& fields,
                            NodePlacement placement, std::int64_t buffered_from_bytes);

}  // namespace haloflag::halo::detail
