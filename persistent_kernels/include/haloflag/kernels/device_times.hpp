/// @file
/// Optional per-message device times, for traces of an exchange: where each block began packing,
/// signalled send_ready, saw unpack_ready and signalled unpack_done, on the device's clock_ns().
/// The slots live in mapped host memory; a stamp is written before the flag it precedes, so a
/// host that has seen the flag (acquire) also sees the stamp.
#pragma once

#include <cstdint>

#include "haloflag/notify/clock.hpp"
#include "haloflag/notify/portability.hpp"

namespace haloflag::kernels {

/// The device times recorded per send.
enum class SendTime : std::uint32_t { pack_begin = 0, packed = 1 };
/// The device times recorded per receive.
enum class RecvTime : std::uint32_t { ready_seen = 0, unpacked = 1 };
inline constexpr std::uint32_t kTimesPerMessage = 2;  ///< Device times recorded per message.

/// Where the blocks stamp device times of sends and receives.
struct DeviceTimesView {
  std::uint64_t* slots = nullptr;  ///< null: not recorded
  std::uint32_t send_count = 0;    ///< sends first, then receives, kTimesPerMessage each

  /// Slot of `time` of send `message`, or nullptr when not recorded.
  HF_HD std::uint64_t* send_slot(std::uint32_t message, SendTime time) const {
    if (slots == nullptr) return nullptr;
    return slots + message * kTimesPerMessage + static_cast<std::uint32_t>(time);
  }
  /// Slot of `time` of receive `message`, or nullptr when not recorded.
  HF_HD std::uint64_t* recv_slot(std::uint32_t message, RecvTime time) const {
    if (slots == nullptr) return nullptr;
    return slots + (send_count + message) * kTimesPerMessage + static_cast<std::uint32_t>(time);
  }
};

/// Number of slots for `sends` sends and `recvs` receives.
inline constexpr std::uint32_t device_time_slots(std::uint32_t sends, std::uint32_t recvs) {
  return (sends + recvs) * kTimesPerMessage;
}

/// Stamps the device clock into `slot` (nothing when tracing is off).
HF_HD inline void stamp_device_time(std::uint64_t* slot) {
  if (slot != nullptr) *reinterpret_cast<volatile std::uint64_t*>(slot) = notify::clock_ns();
}

}  // namespace haloflag::kernels
