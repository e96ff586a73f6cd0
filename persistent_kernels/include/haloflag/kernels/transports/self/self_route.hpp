/// @file
/// The device half of the self transport (docs/transports.md, "self"): a rank's messages to
/// itself, as on a periodic axis of one rank. Each send is copied from this rank's cells straight
/// into the ghost cells of the receive it pairs with, on this rank's GPU: no flag to another
/// rank, no flow control (the rank's own exchanges follow each other in order), and no buffer
/// but the bulk strategies' own.
///   - the piece grid copies the sends in pieces and counts them with its other work;
///   - a bulk strategy's kernels pack each send into a buffer of the rank's own and unpack the
///     receive from it, as they do every message: a copy straight from cells to cells in the
///     fused pack kernel raised its registers from 48 to 64 with spills, which every message
///     of every exchange paid;
///   - an embedded group copies a send whole and stores the epoch into its receive's placed
///     word, which the group handed that receive waits on.
/// Trivially copyable plain views: the plan points kernels at this table (RouteTables::self).
#pragma once

#include <cstdint>
#include <limits>
#include <type_traits>

#include "haloflag/kernels/detail/exchange_plan.hpp"
#include "haloflag/notify/flag_line.hpp"
#include "haloflag/notify/portability.hpp"

namespace haloflag::kernels {

/// Marks a message that the self transport does not carry.
inline constexpr std::uint32_t kNotSelf = std::numeric_limits<std::uint32_t>::max();

/// A send of this rank; recv == kNotSelf: another transport carries it.
struct SelfSendRoute {
  std::uint32_t recv = kNotSelf;  ///< the receive whose ghost cells it fills
  std::uint32_t pieces = 0;       ///< its pieces in the piece grid
  std::byte* buffer = nullptr;    ///< bulk strategies: where the pack kernel packs it
};

/// A receive of this rank; send == kNotSelf: another transport carries it.
struct SelfRecvRoute {
  std::uint32_t send = kNotSelf;      ///< the send filling it
  const std::byte* buffer = nullptr;  ///< bulk strategies: its send's buffer, unpacked from
};

/// Elements [first, first + count) of a self send, in buffer order.
struct SelfPiece {
  std::uint32_t send = 0;  ///< the send
  std::uint32_t first = 0;  ///< its first element
  std::uint32_t count = 0;  ///< number of elements
};

/// The self transport's route table, in device memory, as is everything it points to.
struct SelfPlan {
  const SelfSendRoute* sends = nullptr;  ///< [send_count]
  const SelfRecvRoute* recvs = nullptr;  ///< [recv_count]
  const SelfPiece* pieces = nullptr;  ///< in send order
  std::uint32_t piece_count = 0;  ///< entries of pieces
  /// [recv_count] in device memory, the embedded API's: the last epoch whose send was copied
  /// into the receive (a line each, as the groups of different receives poll them).
  notify::FlagLine* placed = nullptr;
  std::uint32_t placed_id = 0;  ///< failure records: self_placed[receive]
};

static_assert(std::is_trivially_copyable_v<SelfSendRoute>);
static_assert(std::is_trivially_copyable_v<SelfRecvRoute>);
static_assert(std::is_trivially_copyable_v<SelfPiece>);
static_assert(std::is_trivially_copyable_v<SelfPlan>);

/// The self route of send `message`, or null when another transport carries it.
HF_HD inline const SelfSendRoute* self_send(const ExchangePlan& plan, std::uint32_t message) {
  const SelfPlan* self = plan.routes.self;
  if (self == nullptr || self->sends[message].recv == kNotSelf) return nullptr;
  return &self->sends[message];
}

/// The self route of receive `message` (one of this rank's own sends fills it), or null.
HF_HD inline const SelfRecvRoute* self_recv(const ExchangePlan& plan, std::uint32_t message) {
  const SelfPlan* self = plan.routes.self;
  if (self == nullptr || self->recvs[message].send == kNotSelf) return nullptr;
  return &self->recvs[message];
}

}  // namespace haloflag::kernels
