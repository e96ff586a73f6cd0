/// @file
/// Where the device's clock_ns() stands against the host's, so that times taken by kernels
/// (%globaltimer on NVIDIA, s_memrealtime on AMD) and by host code land on one time line, as in a
/// trace of an exchange.
#pragma once

#include <cstdint>

#include "haloflag/notify/backend.hpp"

namespace haloflag::notify {

/// Offset between the device's clock_ns() and the host's, as measured.
struct DeviceClockOffset {
  /// device clock_ns() - host clock_ns() at the same instant.
  std::int64_t device_minus_host_ns = 0;
  /// Half the shortest host round trip the estimate came from: the true offset is within
  /// +- this many nanoseconds.
  std::int64_t uncertainty_ns = 0;

  /// A device clock reading converted to the host's clock.
  std::int64_t to_host_ns(std::uint64_t device_ns) const {
    return static_cast<std::int64_t>(device_ns) - device_minus_host_ns;
  }
};

/// Measures the offset with `rounds` flag ping-pongs against a one-thread kernel on the current
/// GPU: the kernel stamps its clock when it sees the host's flag, the host brackets each round
/// with its own clock, and the tightest round wins. The host backend's "device" clock is the
/// host clock (offset 0). Each wait has a 2 s deadline; throws NotifyError on failure.
DeviceClockOffset measure_device_clock_offset(Backend backend, std::uint32_t rounds = 32);

}  // namespace haloflag::notify
