// Internal: the size of the piece grid's pieces (kernels' transports/piece_grid_steps.hpp), the
// same for every transport whose messages the grid moves.
#pragma once

#include <algorithm>
#include <cstdint>

#include "haloflag/halo/exchange_options.hpp"
#include "haloflag/halo/message_layouts.hpp"

namespace haloflag::halo::detail {

// The bytes asked for (LaunchSettings::node_piece_bytes), and at least one element of the
// largest type for each thread of the block moving the piece: the stacked grid's blocks are
// larger than the piece grid's own.
inline std::int64_t piece_grid_piece_bytes(const MessageLayouts& layouts,
                                           const ExchangeOptions& options) {
  const kernels::LaunchSettings& launch = options.advanced.launch;
  const int threads =
      options.strategy == Strategy::stacked_notify ? launch.stacked_threads : launch.node_threads;
  return std::max<std::int64_t>(launch.node_piece_bytes,
                                std::int64_t{threads} * largest_element_bytes(layouts));
}

}  // namespace haloflag::halo::detail
