/// @file
/// The device half of the self transport (docs/transports.md, "self"): a rank's messages to
/// itself, as on a periodic axis of one rank. Each send is copied from this rank's cells straight
/// into the ghost cells of the receive it pairs with, on this rank's GPU: no buffer, no flag
/// to another rank, no flow control (the rank's own exchanges follow each other in order).
///   - the piece grid copies the sends in pieces and counts them with its other work;
///   - a bulk strategy's pack kernel copies each send whole, and its unpack kernel skips the
///     receive;
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
  const std::uint32_t* send_of_recv = nullptr;  ///< [recv_count]: the send filling it, or kNotSelf
  const SelfPiece* pieces = nullptr;  ///< in send order
  std::uint32_t piece_count = 0;  ///< entries of pieces
  /// [recv_count] in device memory, the embedded API's: the last epoch whose send was copied
  /// into the receive (a line each, as the groups of different receives poll them).
  notify::FlagLine* placed = nullptr;
  std::uint32_t placed_id = 0;  ///< failure records: self_placed[receive]
};

static_assert(std::is_trivially_copyable_v<SelfSendRoute>);
static_assert(std::is_trivially_copyable_v<SelfPiece>);
static_assert(std::is_trivially_copyable_v<SelfPlan>);

/// The self route of send `message`, or null when another transport carries it.
HF_HD inline const SelfSendRoute* self_send(const ExchangePlan& plan, std::uint32_t message) {
  const SelfPlan* self = plan.routes.self;
  if (self == nullptr || self->sends[message].recv == kNotSelf) return nullptr;
  return &self->sends[message];
}

/// Whether receive `message` is filled by one of this rank's own sends.
HF_HD inline bool self_recv(const ExchangePlan& plan, std::uint32_t message) {
  const SelfPlan* self = plan.routes.self;
  return self != nullptr && self->send_of_recv[message] != kNotSelf;
}

}  // namespace haloflag::kernels
