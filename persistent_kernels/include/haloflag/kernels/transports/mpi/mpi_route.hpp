/// @file
/// The device half of the mpi transport (docs/design.md, "Transports and strategies"): a block
/// packs each message whole into this rank's pinned send buffer and signals send_ready, which
/// the CPU state machine reads before it posts the message; a receive is unpacked from the
/// pinned receive buffer once the CPU has stored unpack_ready, and unpack_done tells the CPU it
/// is unpacked. Its table is the plan's own buffers and flags.
#pragma once

#include <cstdint>

#include "haloflag/kernels/block_waits.hpp"
#include "haloflag/kernels/detail/exchange_plan.hpp"
#include "haloflag/notify/flag_ops.hpp"
#include "haloflag/notify/portability.hpp"

namespace haloflag::kernels {

// Signals. The group's barrier orders every member's payload writes before member 0's
// system-scope release store, and release is cumulative: what member 0 has observed is
// published with the flag. One fence per group, not per thread: a system-scope fence in each of
// a whole grid's threads cost milliseconds per exchange.

/// Where send `message` is packed whole: its place in the pinned send buffer.
HF_HD inline std::byte* mpi_send_place(const ExchangePlan& plan, std::uint32_t message) {
  return plan.send_buffer + plan.sends[message].buffer_offset;
}

/// Where receive `message` is unpacked from: its place in the pinned receive buffer.
HF_HD inline const std::byte* mpi_recv_place(const ExchangePlan& plan, std::uint32_t message) {
  return plan.recv_buffer + plan.recvs[message].buffer_offset;
}

/// Send `message` of `epoch` is packed (one thread calls this, after the group's barrier): its
/// send_ready hands it to the CPU, which posts it.
HF_HD inline void signal_packed(const ExchangePlan& plan, std::uint32_t message,
                                std::uint64_t epoch) {
  count_done_unit(plan, epoch);
  notify::signal_flag(plan.send_ready, message, epoch);
}

/// Receive `message` of `epoch` is unpacked (one thread, after the barrier): unpack_done tells
/// this rank's CPU.
HF_HD inline void signal_unpacked(const ExchangePlan& plan, std::uint32_t message,
                                  std::uint64_t epoch) {
  count_done_unit(plan, epoch);
  notify::signal_flag(plan.unpack_done, message, epoch);
}

/// Waits until MPI receive `message` of `epoch` may be unpacked: unpack_ready, which this rank's
/// CPU stores once MPI received it, and which alone can say stop (kStopEpoch).
template <ExchangeGroup Group>
HF_HD BlockStatus wait_arrival(const Group& group, const ExchangePlan& plan, std::uint32_t message,
                               std::uint64_t epoch, std::uint32_t waiter) {
  return leader_wait(group, plan.unpack_ready, message, epoch, plan.control, waiter);
}

}  // namespace haloflag::kernels
