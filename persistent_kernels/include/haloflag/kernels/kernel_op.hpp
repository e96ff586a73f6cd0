/// @file
/// The units of GPU work the exchange strategies launch, and the lane (stream) each runs on.
#pragma once

#include <string_view>

namespace haloflag::kernels {

/// The exchange kernels a KernelRunner launches.
enum class KernelOp {
  fused_pack,          ///< all sends, many blocks per message (Comb's fused kernel)
  fused_unpack,        ///< all receives, likewise
  per_message_pack,    ///< one block per send message, no flags (stream_base)
  per_message_unpack,  ///< one block per receive message, no flags
  notify_pack,         ///< one block per send: pack, then signal send_ready
  notify_unpack,       ///< one block per receive: wait unpack_ready, unpack, signal unpack_done
  stacked,             ///< one cooperative grid: pack and unpack with grid barriers (§4.2)
  resident_pack,       ///< notify_pack for every epoch until stopped, waiting on pack_start
  resident_unpack,     ///< notify_unpack for every epoch until stopped
  piece_grid,          ///< the piece grid for one epoch (transports/piece_grid_steps.hpp)
  resident_piece_grid, ///< piece_grid for every epoch until stopped, waiting on pack_start
};

/// Three lanes: the pack lane carries the pack work and the non-flag unpacks that follow it in
/// order; the unpack lane carries the flag-driven unpack kernels that run beside the pack ones;
/// the pieces lane carries the piece grid (the node and self transports' pieces) beside both.
enum class Lane { pack = 0, unpack = 1, pieces = 2 };
inline constexpr int kLaneCount = 3;  ///< Number of lanes.

/// The lane `op` runs on.
constexpr Lane lane_of(KernelOp op) {
  if (op == KernelOp::piece_grid || op == KernelOp::resident_piece_grid) return Lane::pieces;
  return op == KernelOp::notify_unpack || op == KernelOp::resident_unpack ? Lane::unpack
                                                                          : Lane::pack;
}

/// The operation's name.
std::string_view to_string(KernelOp op);

/// The lane's name.
constexpr std::string_view to_string(Lane lane) {
  return lane == Lane::pack ? "pack" : lane == Lane::unpack ? "unpack" : "pieces";
}

}  // namespace haloflag::kernels
