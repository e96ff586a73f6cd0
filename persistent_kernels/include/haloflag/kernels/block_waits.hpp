/// @file
/// How a block of an exchange kernel waits: its leader (member 0) polls one word with the plan's
/// deadline and abort flag, and every member gets the outcome. Shared by the per-message block
/// programs (block_programs.hpp) and the piece grid (transports/piece_grid_steps.hpp).
///
/// A group type (the ExchangeGroup concept below) provides (all HF_HD):
///   int  thread() const;          this member's index, 0 <= thread() < size()
///   int  size() const;            members in the group
///   void sync() const;            barrier over the group
///   int  from_leader(int) const;  barrier; every member returns the value member 0 passed
/// A GPU block is a group (threadIdx, __syncthreads); so is the whole cooperative grid (grid
/// barrier); on the host a block is a single thread and the stacked grid is a team of threads.
#pragma once

#include <concepts>
#include <cstdint>

#include "haloflag/kernels/detail/exchange_plan.hpp"
#include "haloflag/notify/flag_ops.hpp"
#include "haloflag/notify/portability.hpp"
#include "haloflag/notify/stream_release.hpp"

namespace haloflag::kernels {

/// The group contract above, checked by the compiler wherever a group is passed.
template <class G>
concept ExchangeGroup = requires(const G& group, int value) {
  { group.thread() } -> std::convertible_to<int>;
  { group.size() } -> std::convertible_to<int>;
  group.sync();
  { group.from_leader(value) } -> std::convertible_to<int>;
};

/// What a block learns from a wait.
enum class BlockStatus : int {
  ok,      ///< the flag shows the epoch: go on
  stop,    ///< the host stored kStopEpoch: the resident kernel ends
  failed,  ///< deadline or abort: recorded in the control block; the block ends
  left,    ///< the resident grid leaves the GPU idle; a later start launches it again
};

/// The group's leader waits on one flag word (`array_id` and `index` name it in a failure record)
/// as notify::wait_word_or_leave does, asking `leave` from `idle_ns` of waiting on; every member
/// gets the outcome. The stop is told by the value that ended the wait, not by a second read;
/// `leader_seen`, where given, gets that value (the leader's alone).
template <ExchangeGroup Group, class Leave>
HF_HD BlockStatus leader_wait_word_or_leave(const Group& group, const std::uint64_t* word,
                                            std::uint32_t array_id, std::uint32_t index,
                                            std::uint64_t epoch,
                                            const notify::WaitControl& control,
                                            std::uint32_t waiter, notify::AbortReads abort_reads,
                                            notify::Scope scope, std::uint64_t idle_ns,
                                            Leave leave, std::uint64_t* leader_seen = nullptr) {
  BlockStatus status = BlockStatus::ok;
  if (group.thread() == 0) {
    std::uint64_t seen = 0;
    const notify::WaitOutcome outcome =
        notify::wait_word_or_leave(word, array_id, index, epoch, control, notify::Side::device,
                                   waiter, abort_reads, scope, idle_ns, leave, &seen);
    if (outcome == notify::WaitOutcome::idle) {
      status = BlockStatus::left;
    } else if (outcome != notify::WaitOutcome::ready) {
      status = BlockStatus::failed;
    } else if (seen == kStopEpoch) {
      status = BlockStatus::stop;
    }
    if (leader_seen != nullptr) *leader_seen = seen;
  }
  return static_cast<BlockStatus>(group.from_leader(static_cast<int>(status)));
}

/// The group's leader waits on one flag word (`array_id` and `index` name it in a failure record);
/// every member gets the outcome, and `leader_seen` (where given) the value that ended the wait.
template <ExchangeGroup Group>
HF_HD BlockStatus leader_wait_word(const Group& group, const std::uint64_t* word,
                                   std::uint32_t array_id, std::uint32_t index,
                                   std::uint64_t epoch, const notify::WaitControl& control,
                                   std::uint32_t waiter,
                                   notify::AbortReads abort_reads = notify::AbortReads::periodic,
                                   notify::Scope scope = notify::Scope::system,
                                   std::uint64_t* leader_seen = nullptr) {
  return leader_wait_word_or_leave(group, word, array_id, index, epoch, control, waiter,
                                   abort_reads, scope, 0, notify::NeverLeave{}, leader_seen);
}

/// The same for flag `index` of `flags`: member 0 waits, every member gets the outcome.
template <ExchangeGroup Group>
HF_HD BlockStatus leader_wait(const Group& group, const notify::FlagArrayView& flags,
                              std::uint32_t index, std::uint64_t epoch,
                              const notify::WaitControl& control, std::uint32_t waiter,
                              notify::AbortReads abort_reads = notify::AbortReads::periodic,
                              notify::Scope scope = notify::Scope::system) {
  return leader_wait_word(group, flags.word(index), flags.array_id, index, epoch, control, waiter,
                          abort_reads, scope);
}

/// True once some device-side wait has failed: lets every block of a grid leave together. The
/// device record's `claimed` is the GPU's own word (claim_same_side), read at its scope.
HF_HD inline bool device_wait_failed(const notify::WaitControl& control) {
  if (control.device_failed != nullptr) {
    return notify::load_relaxed_same_side(control.device_failed) != 0;
  }
  const auto& record = control.words->failure[static_cast<std::uint32_t>(notify::Side::device)];
  return notify::load_relaxed_same_side(&record.claimed) != 0;
}

/// One unit of the exchange is done (one thread): an MPI send packed, an MPI receive unpacked, or
/// every node message. The block completing the exchange's count of them stores the epoch into
/// exchange_done, the word a stream-ordered wait(stream) holds the caller's stream on. Device
/// scope: the stream and the work behind it are on this GPU.
HF_HD inline void count_done_unit(const ExchangePlan& plan, std::uint64_t epoch) {
  if (plan.exchange_done == nullptr || plan.done_units == 0) return;
  const std::uint64_t before = notify::count_in_same_side(plan.messages_counted);
  if ((before + 1) % plan.done_units == 0) {
    notify::store_release_same_side(plan.exchange_done, epoch);
  }
}

/// A resident kernel that ends (stopped or failed) releases every stream waiting in
/// wait(stream), whose exchange will never be done: no caller's stream waits forever, and the
/// host reports the failure at its next call (end_resident_block, idle_exit.hpp, says when).
HF_HD inline void release_stream_waits(const ExchangePlan& plan) {
  if (plan.exchange_done != nullptr) {
    notify::store_release_same_side(plan.exchange_done, notify::kReleaseStreamWaits);
  }
}

}  // namespace haloflag::kernels
