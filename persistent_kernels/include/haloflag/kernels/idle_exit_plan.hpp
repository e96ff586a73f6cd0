/// @file
/// What resident kernels need to leave the GPU when idle and come back (idle_exit.hpp): the
/// window, and the words that the host and the grids' watchers settle it through.
#pragma once

#include <cstdint>

#include "haloflag/notify/flag_array_view.hpp"
#include "haloflag/notify/portability.hpp"

namespace haloflag::kernels {

/// The resident grids that leave and come back each on their own. The pack and unpack grids go
/// together: pack block 0 watches the start for both. The piece grid's block 0 watches for it.
enum class ResidentGrid : std::uint32_t { messages = 0, pieces = 1 };
inline constexpr std::uint32_t kResidentGrids = 2;  ///< Number of ResidentGrid values.

/// What a grid's watcher last said about the exchange it waits for.
enum class WatcherSays : std::uint64_t {
  launched = 0,   ///< the grid has begun (written once per launch)
  may_leave = 1,  ///< the window passed: it leaves unless a start was promised
  stays = 2,      ///< a start was promised: it waits for it
  left = 3,       ///< it left; the next start launches the grid again
};

/// A watcher's word: the epoch it waits for, and what it says (the low two bits).
HF_HD constexpr std::uint64_t watcher_word(std::uint64_t epoch, WatcherSays says) {
  return epoch << 2 | static_cast<std::uint64_t>(says);
}
/// What the watcher's word says.
HF_HD constexpr WatcherSays watcher_says(std::uint64_t word) {
  return static_cast<WatcherSays>(word & 3);
}
/// The epoch the watcher's word is about.
HF_HD constexpr std::uint64_t watcher_epoch(std::uint64_t word) { return word >> 2; }

/// What the resident grids and the host settle a leave through (ExchangePlan::idle).
struct IdleExitPlan {
  /// How long a watcher waits for the next start before it may leave; 0: the grids never leave.
  std::uint64_t window_ns = 0;
  /// [1] in pinned host memory, host writes: the last exchange a start promised, stored before
  /// that start's own store (which a caller's stream may make much later).
  notify::FlagArrayView promised;
  /// [kResidentGrids] in pinned host memory, device writes: each grid's watcher's word.
  notify::FlagArrayView watchers;
  /// [kResidentGrids] in device memory, device writes: the last generation of each grid whose
  /// watcher left; the grid's other blocks leave when it reaches theirs.
  notify::FlagArrayView left;

  /// Whether the grids leave when idle.
  HF_HD bool leaves() const { return window_ns != 0; }
};

}  // namespace haloflag::kernels
