/// @file
/// signal / poll / wait on one flag: the operations GPU kernels use, and that the host
/// backend's team threads use unchanged.
///
/// Protocol (docs/design.md): a writer finishes its payload, makes it visible to the whole group
/// (barrier), then ONE thread calls signal_flag with the exchange's epoch. A reader that sees
/// poll_flag/wait_flag succeed may read the payload: the signal is a system-scope release and
/// success is followed by a system-scope acquire fence. Epochs only grow; waiting means
/// "flag >= epoch", so nothing is ever re-armed.
#pragma once

#include <cstdint>

#include "haloflag/notify/clock.hpp"
#include "haloflag/notify/flag_array_view.hpp"
#include "haloflag/notify/portability.hpp"
#include "haloflag/notify/system_atomics.hpp"
#include "haloflag/notify/wait_control.hpp"

#if !HF_DEVICE_CODE
#include <thread>
#endif

namespace haloflag::notify {

/// Polls between two reads of the clock (deadline).
inline constexpr std::uint32_t kPollsPerCheck = 16;
/// Least time between two reads of the abort flag by one waiter. For a GPU each read crosses
/// PCIe, and reads of one host cache line by many blocks are served one after another: every
/// waiting block reading the one abort line often would slow every other host access.
inline constexpr std::uint64_t kAbortCheckIntervalNs = 100'000;

/// Announces `epoch` on flag `index` with a system-scope release store.
HF_HD inline void signal_flag(const FlagArrayView& flags, std::uint32_t index, std::uint64_t epoch) {
  store_release_system(flags.word(index), epoch);
}

/// True when the flag announces `epoch` or a later one; then the payload is visible.
/// Every poll is an acquire load. On CUDA that is the load plus an L1 invalidate; a relaxed load
/// followed by an acquire fence once the epoch shows costs a full system-scope memory barrier
/// instead, which is slower per flag (docs/flag_api.md has the measurement).
HF_HD inline bool poll_flag(const FlagArrayView& flags, std::uint32_t index, std::uint64_t epoch) {
  return load_acquire_system(flags.word(index)) >= epoch;
}

/// Lets other work run between polls: host threads yield (many ranks may share few cores,
/// rule 7); GPU threads sleep for the control's back-off, which thins out their bus reads.
HF_HD inline void back_off(const WaitControl& control) {
#if HF_HIP_DEVICE_CODE
  // s_sleep(1) pauses about 64 clock cycles, about 40 ns at 1.5-2 GHz; its argument must be a
  // constant, so the pause is a count of them (none for a wait that does not pause).
  for (std::uint32_t slept = 0; slept < control.poll_backoff_ns; slept += 40) {
    __builtin_amdgcn_s_sleep(1);
  }
#elif HF_DEVICE_CODE
  if (control.poll_backoff_ns > 0) __nanosleep(control.poll_backoff_ns);
#else
  (void)control;
  std::this_thread::yield();
#endif
}

/// Records the first failure of `side`; later failures of the same side keep the first one.
HF_HD inline void record_wait_failure(const WaitControl& control, Side side, WaitOutcome outcome,
                                      std::uint32_t array_id, std::uint32_t index,
                                      std::uint64_t expected, std::uint64_t last_seen,
                                      std::uint64_t waited_ns, std::uint32_t waiter) {
  WaitFailureRecord& record = control.words->failure[static_cast<std::uint32_t>(side)];
  // Every failing device waiter sets the mirror before it tries to claim the record: one that
  // loses the claim asks at once whether a wait failed, and the winner may not have set it yet.
  if (side == Side::device && control.device_failed != nullptr) {
    store_release_same_side(control.device_failed, 1);
  }
  if (!claim_same_side(&record.claimed)) return;
  record.expected_epoch = expected;
  record.last_seen = last_seen;
  record.waited_ns = waited_ns;
  record.outcome = static_cast<std::uint32_t>(outcome);
  record.array_id = array_id;
  record.index = index;
  record.waiter = waiter;
  store_release_system(&record.published, 1);
}

/// Records a failed wait on flag `index` of `flags` (see the overload taking an array id).
HF_HD inline void record_wait_failure(const WaitControl& control, Side side, WaitOutcome outcome,
                                      const FlagArrayView& flags, std::uint32_t index,
                                      std::uint64_t expected, std::uint64_t last_seen,
                                      std::uint64_t waited_ns, std::uint32_t waiter) {
  record_wait_failure(control, side, outcome, flags.array_id, index, expected, last_seen,
                      waited_ns, waiter);
}

/// Whether the abort flag of `control` is raised.
HF_HD inline bool abort_raised(const WaitControl& control) {
  return load_relaxed_system(&control.words->abort.epoch) != 0;
}

/// Whether a wait also reads the abort flag (in host memory) now and then. A wait on a copy in
/// device memory that another block makes of a host flag skips it, as do all but one of many
/// blocks waiting on one word: one block reads the abort flag for all, and hundreds of blocks
/// reading one host line at once are served one after another, for hundreds of microseconds.
/// A wait without abort reads still leaves at its deadline, and once any device wait has failed
/// (WaitControl::device_failed, in the GPU's own memory, where there is one): the waiter that
/// saw the abort records it there.
/// `late` reads it as `periodic` does, but only from kAbortCheckIntervalNs of waiting on, and
/// also leaves once a device wait has failed: for the many waiters of which any may be the last
/// one left (the node transport's lines), whose short waits then read no host line at all.
enum class AbortReads { periodic, none, late };

/// An idle check that never says leave: the plain waits below.
struct NeverLeave {
  /// Never: the wait goes on to its deadline.
  HF_HD bool operator()() const { return false; }
};

/// One look at the clock by a wait that has polled for `waited` ns: the abort flag (as
/// `abort_reads` says, when `next_abort_check` has come), the device's failure mirror, then from
/// `idle_ns` on the idle check `leave`, and the deadline. WaitOutcome::ready: go on polling.
template <class Leave>
HF_HD WaitOutcome look_while_waiting(const WaitControl& control, AbortReads abort_reads,
                                     std::uint64_t waited, std::uint64_t& next_abort_check,
                                     std::uint64_t idle_ns, std::uint64_t deadline, Leave& leave) {
  WaitOutcome outcome = WaitOutcome::ready;
  if (abort_reads != AbortReads::none && waited >= next_abort_check) {
    next_abort_check = waited + kAbortCheckIntervalNs;
    if (abort_raised(control)) outcome = WaitOutcome::aborted;
  } else if (abort_reads != AbortReads::periodic && control.device_failed != nullptr &&
             load_relaxed_same_side(control.device_failed) != 0) {
    outcome = WaitOutcome::aborted;
  }
  if (outcome == WaitOutcome::ready && waited >= idle_ns && leave()) return WaitOutcome::idle;
  if (outcome == WaitOutcome::ready && waited >= deadline) outcome = WaitOutcome::timed_out;
  return outcome;
}

/// The deadline of a wait that asks its idle check from `idle_ns` on: idle_ns +
/// control.timeout_ns, so that a waiter that stays past its idle check still has the whole
/// timeout.
HF_HD inline std::uint64_t wait_deadline(const WaitControl& control, std::uint64_t idle_ns) {
  return idle_ns > ~std::uint64_t{0} - control.timeout_ns ? ~std::uint64_t{0}
                                                           : idle_ns + control.timeout_ns;
}

/// The waited time at which a wait reads the abort flag first: at once, or for AbortReads::late
/// after kAbortCheckIntervalNs.
HF_HD inline std::uint64_t first_abort_check(AbortReads abort_reads) {
  return abort_reads == AbortReads::late ? kAbortCheckIntervalNs : 0;
}

/// Waits until *word >= epoch, the abort flag is raised, or the deadline passes; from `idle_ns`
/// of waiting on, each look at the clock also asks `leave()`, and the wait gives up quietly
/// (WaitOutcome::idle, nothing recorded) when it says so (look_while_waiting). A resident
/// kernel's wait for the next exchange uses it to leave the GPU (idle_exit.hpp). `seen`, where
/// given, gets the value that ended a ready wait: a word in pinned host memory costs a read
/// across the bus each time it is read again.
template <class Leave>
HF_HD WaitOutcome wait_word_or_leave(const std::uint64_t* word, std::uint32_t array_id,
                                     std::uint32_t index, std::uint64_t epoch,
                                     const WaitControl& control, Side side, std::uint32_t waiter,
                                     AbortReads abort_reads, Scope scope, std::uint64_t idle_ns,
                                     Leave leave, std::uint64_t* seen = nullptr) {
  std::uint64_t value = load_acquire(word, scope);
  if (value < epoch) {
    const std::uint64_t start = clock_ns();
    const std::uint64_t deadline = wait_deadline(control, idle_ns);
    std::uint64_t next_abort_check = first_abort_check(abort_reads);
    for (std::uint32_t polls = 1;; ++polls) {
      back_off(control);
      value = load_acquire(word, scope);
      if (value >= epoch) break;
      if (polls % kPollsPerCheck != 0) continue;
      const std::uint64_t waited = clock_ns() - start;
      const WaitOutcome outcome = look_while_waiting(control, abort_reads, waited,
                                                     next_abort_check, idle_ns, deadline, leave);
      if (outcome == WaitOutcome::idle) return outcome;
      if (outcome != WaitOutcome::ready) {
        record_wait_failure(control, side, outcome, array_id, index, epoch, value, waited,
                            waiter);
        return outcome;
      }
    }
  }
  if (seen != nullptr) *seen = value;
  return WaitOutcome::ready;
}

/// Waits until flags[index] >= epoch, the abort flag is raised, or control.timeout_ns passes.
/// On failure the first failing waiter of `side` is recorded in the control block; the caller
/// (a GPU block) must then stop its work and return.
///
/// wait_word is the same wait on a single flag word that is not part of an array this side owns
/// (a peer's flag mapped into this process); `array_id` and `index` name it in a failure record.
/// `scope` is the word's: Scope::same_side for a gate between one side's own blocks. `seen`:
/// as wait_word_or_leave's.
HF_HD inline WaitOutcome wait_word(const std::uint64_t* word, std::uint32_t array_id,
                                   std::uint32_t index, std::uint64_t epoch,
                                   const WaitControl& control, Side side, std::uint32_t waiter,
                                   AbortReads abort_reads = AbortReads::periodic,
                                   Scope scope = Scope::system, std::uint64_t* seen = nullptr) {
  return wait_word_or_leave(word, array_id, index, epoch, control, side, waiter, abort_reads,
                            scope, 0, NeverLeave{}, seen);
}

/// Waits until flag `index` of `flags` shows `epoch`, the deadline passes or an abort is raised.
HF_HD inline WaitOutcome wait_flag(const FlagArrayView& flags, std::uint32_t index,
                                   std::uint64_t epoch, const WaitControl& control, Side side,
                                   std::uint32_t waiter,
                                   AbortReads abort_reads = AbortReads::periodic) {
  return wait_word(flags.word(index), flags.array_id, index, epoch, control, side, waiter,
                   abort_reads);
}

}  // namespace haloflag::notify
