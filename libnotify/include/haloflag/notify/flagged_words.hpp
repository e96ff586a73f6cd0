/// @file
/// Flagged words: 4 bytes of data and the low 32 bits of an epoch in one 8-byte word, stored and
/// loaded whole (docs/design.md, "Lines"). A reader that finds the epoch in a word has its data:
/// one aligned 8-byte access is single-copy atomic on every GPU and CPU, so the data needs no
/// release, fence or counter of its own, and its arrival is its own signal. Each word is checked
/// on its own: nothing wider than 8 bytes is atomic.
#pragma once

#include <cstdint>

#include "haloflag/notify/flag_ops.hpp"
#include "haloflag/notify/portability.hpp"
#include "haloflag/notify/system_atomics.hpp"
#include "haloflag/notify/wait_control.hpp"

namespace haloflag::notify {

/// `data` flagged with `epoch` (its low 32 bits).
HF_HD constexpr std::uint64_t flagged_word(std::uint32_t data, std::uint64_t epoch) {
  return (epoch << 32) | data;
}

/// The flag of a flagged word: the low 32 bits of the epoch that wrote it.
HF_HD constexpr std::uint32_t word_flag(std::uint64_t word) {
  return static_cast<std::uint32_t>(word >> 32);
}

/// The data of a flagged word.
HF_HD constexpr std::uint32_t word_data(std::uint64_t word) {
  return static_cast<std::uint32_t>(word);
}

/// Whether `word` was written by `epoch`.
HF_HD constexpr bool flagged_by(std::uint64_t word, std::uint64_t epoch) {
  return word_flag(word) == static_cast<std::uint32_t>(epoch);
}

/// Stores one flagged word at system scope, relaxed.
HF_HD inline void store_flagged_word(std::uint64_t* at, std::uint64_t word) {
  detail::store<Scope::system, false>(at, word);
}

/// Loads one flagged word at system scope, relaxed.
HF_HD inline std::uint64_t load_flagged_word(const std::uint64_t* at) {
  return detail::load<Scope::system, false>(at);
}

/// Who waits on flagged words, and how a failure names them: the flag array and index of the
/// failure record (the node transport: node_arrival[peer]), the waiter, and whether the wait
/// reads the host's abort flag. The control is a copy: a pointer into a kernel's parameters
/// handed to a call that is not inlined makes the compiler copy them all to local memory.
struct FlaggedWait {
  WaitControl control;      ///< deadline, pause, control words and failure mirror
  std::uint32_t array_id;   ///< the flag array a failure names
  std::uint32_t index;      ///< the flag of that array
  std::uint32_t waiter;     ///< the block (or caller's id) that waits
  AbortReads abort_reads;   ///< whether and when the wait reads the host's abort flag
};

/// The wait of wait_flagged_word once a first look found a word of another epoch, as
/// notify::wait_word waits. Out of line, so that the large kernels that take lines (the piece
/// grid, the caller's own) keep their registers for their fast path.
HF_HD HF_NOINLINE inline bool wait_flagged_word_slowly(const std::uint64_t* at, std::uint64_t epoch,
                                                       FlaggedWait how, std::uint64_t& word) {
  const std::uint64_t start = clock_ns();
  const std::uint64_t deadline = wait_deadline(how.control, 0);
  std::uint64_t next_abort_check = first_abort_check(how.abort_reads);
  NeverLeave stay;
  for (std::uint32_t polls = 1;; ++polls) {
    back_off(how.control);
    word = load_flagged_word(at);
    if (flagged_by(word, epoch)) return true;
    if (polls % kPollsPerCheck != 0) continue;
    const std::uint64_t waited = clock_ns() - start;
    const WaitOutcome outcome = look_while_waiting(how.control, how.abort_reads, waited,
                                                   next_abort_check, 0, deadline, stay);
    if (outcome != WaitOutcome::ready) {
      record_wait_failure(how.control, Side::device, outcome, how.array_id, how.index, epoch,
                          word_flag(word), waited, how.waiter);
      return false;
    }
  }
}

/// Waits until the word at `at` carries `epoch`, and returns it in `word`; false when the wait
/// failed (deadline or abort, recorded for the device side with the flag last seen).
HF_HD inline bool wait_flagged_word(const std::uint64_t* at, std::uint64_t epoch,
                                    const FlaggedWait& how, std::uint64_t& word) {
  word = load_flagged_word(at);
  if (flagged_by(word, epoch)) return true;
  return wait_flagged_word_slowly(at, epoch, how, word);
}

}  // namespace haloflag::notify
