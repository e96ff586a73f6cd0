/// @file
/// One notification flag per 128-byte line (docs/design.md, rule 4): the GPU writes send-ready
/// lines while the CPU writes unpack-ready lines; sharing a line would make each writer's
/// stores invalidate the other's cached copy and, over PCIe, serialise them.
#pragma once

#include <cstddef>
#include <cstdint>

namespace haloflag::notify {

/// Bytes per flag: each flag has a cache line (and more) of its own.
inline constexpr std::size_t kFlagLineBytes = 128;

/// One flag, alone on its line.
struct alignas(kFlagLineBytes) FlagLine {
  /// The epoch (exchange number) this flag announces. Monotonic, never reset (rule 2).
  std::uint64_t epoch;
  /// fills the line
  std::uint8_t padding[kFlagLineBytes - sizeof(std::uint64_t)];
};

static_assert(sizeof(FlagLine) == kFlagLineBytes);
static_assert(alignof(FlagLine) == kFlagLineBytes);

}  // namespace haloflag::notify
