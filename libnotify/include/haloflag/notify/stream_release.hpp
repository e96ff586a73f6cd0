/// @file
/// The value that releases every stream wait on a word (stream_flag_ops.hpp).
#pragma once

#include <cstdint>

namespace haloflag::notify {

/// GPUs compare a stream wait's value cyclically ((int64)(word - value) >= 0), so the largest
/// epoch would not release a wait; this value does, for every epoch below it.
inline constexpr std::uint64_t kReleaseStreamWaits = std::uint64_t{1} << 62;

}  // namespace haloflag::notify
