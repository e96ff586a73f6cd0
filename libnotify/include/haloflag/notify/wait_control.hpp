/// @file
/// What every wait needs besides its flag: a deadline, the abort flag, and where to record a
/// failure. Lives in pinned host memory owned by ControlBlock; this view is trivially copyable.
#pragma once

#include <cstdint>

#include "haloflag/notify/flag_line.hpp"

namespace haloflag::notify {

/// Which side performed a wait. The host backend's team of CPU threads counts as the device.
enum class Side : std::uint32_t { device = 0, host = 1 };

/// out_of_order: the epoch asked for is one the flag can never show in turn (a caller's kernel
/// behind or ahead of the host's exchanges); refused at once instead of waited for.
/// idle: the waiter's idle check said leave (wait_word_or_leave); nothing is recorded.
/// wrong_build: the caller's kernel was compiled without code its plan needs (the embedded
/// API's build without the node transport's lines, for a plan with a peer in lines); refused
/// at once.
/// wrong_fields: the caller's kernel ran an exchange on other fields than the last exchange's
/// finish said it would (kernels::NextExchange), where a node peer was told to place it; the
/// exchange never completes. Its record's last value seen is the FieldSet slot told.
enum class WaitOutcome : std::uint32_t {
  ready = 0,
  timed_out = 1,
  aborted = 2,
  out_of_order = 3,
  idle = 4,
  wrong_build = 5,
  wrong_fields = 6
};

/// The first failed wait of one side. Each side writes only its own record (rule 1):
/// `claimed` is modified by that side's threads alone; `published` is release-stored last so
/// that the other side reads complete fields.
struct alignas(kFlagLineBytes) WaitFailureRecord {
  std::uint64_t claimed;  ///< non-zero once a thread of this side claimed the record
  std::uint64_t published;  ///< non-zero once the fields below are complete
  std::uint64_t expected_epoch;  ///< the epoch the wait expected
  std::uint64_t last_seen;  ///< the flag's value when the wait gave up
  std::uint64_t waited_ns;  ///< how long the wait lasted
  std::uint32_t outcome;  ///< WaitOutcome
  std::uint32_t array_id;  ///< the flag array (ControlBlock::register_array id)
  std::uint32_t index;  ///< the flag within the array
  std::uint32_t waiter;  ///< block (device) or caller-chosen id (host) that failed
};

/// The words a ControlBlock allocates: the abort flag and one failure record per side.
struct ControlWords {
  FlagLine abort;  ///< written by the host only; non-zero once raised
  WaitFailureRecord failure[2];  ///< indexed by Side
};

/// What a wait needs besides its flag: the control words, deadline and poll pause.
struct WaitControl {
  ControlWords* words = nullptr;  ///< valid on the side the view was made for
  std::uint64_t timeout_ns = 0;  ///< deadline of each wait
  /// Pause between two polls of a flag by a GPU thread. Every poll of pinned host memory is a
  /// read across the bus; many blocks polling back to back slow the host's own memory traffic
  /// (MPI copies included), so waits trade a little latency for far fewer reads.
  std::uint32_t poll_backoff_ns = 0;
  /// Device side only: a word in the GPU's own memory that the first device-side failure sets
  /// beside its record. A grid that asks each iteration whether a wait failed reads it there
  /// instead of the record's line in pinned host memory, a read across the bus on the path of
  /// every iteration. Null: the record alone.
  std::uint64_t* device_failed = nullptr;
};

}  // namespace haloflag::notify
