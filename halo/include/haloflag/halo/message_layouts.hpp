/// @file
/// Turning a rank's messages into the plain layouts the pack/unpack kernels consume.
#pragma once

#include <cstdint>
#include <vector>

#include "haloflag/halo/exchange_config.hpp"
#include "haloflag/halo/geometry.hpp"
#include "haloflag/kernels/message_layout.hpp"

namespace haloflag::halo {

/// Layouts of one rank, in the config's message order. Messages lie back to back in one send
/// buffer and one receive buffer: layout.buffer_offset is the running sum of the bytes before.
struct MessageLayouts {
  std::vector<kernels::MessageLayout> sends;  ///< one per send
  std::vector<kernels::MessageLayout> recvs;  ///< one per receive
  std::int64_t send_buffer_bytes = 0;  ///< size of the send buffer
  std::int64_t recv_buffer_bytes = 0;  ///< size of the receive buffer
};

/// Throws ConfigError (naming rank, peer and tag) when the rank is out of range, the config has
/// no data record, an element size is outside 1..16 bytes, vars exceeds kernels::kMaxVariables, the
/// rank has no field extent, or a message has no boxes or more than kMaxBoxesPerMessage.
MessageLayouts make_message_layouts(const ExchangeConfig& config, int rank);
/// Layouts of `rank`'s messages in a geometry.
MessageLayouts make_message_layouts(const Geometry& geometry, int rank);

/// The largest element of any message (0: no message).
int largest_element_bytes(const MessageLayouts& layouts);

}  // namespace haloflag::halo
