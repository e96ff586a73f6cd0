/// @file
/// Flagged words: 4 bytes of data and the low 32 bits of an epoch in one 8-byte word, stored and
/// loaded whole (docs/design.md, "Lines"). A reader that finds the epoch in a word has its data:
/// one aligned 8-byte access is single-copy atomic on every GPU and CPU, so the data needs no
/// release, fence or counter of its own, and its arrival is its own signal. Words are stored in
/// pairs, 16 bytes at once where the GPU has such a store; each word of a pair is checked on its
/// own, since only the 8-byte halves are atomic.
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

/// Stores two flagged words at `at` (16-byte aligned) at system scope, relaxed: the flags are
/// the payload's own signal. One 16-byte store on CUDA (NCCL's LL lines use the same).
HF_HD inline void store_flagged_pair(std::uint64_t* at, std::uint64_t first, std::uint64_t second) {
#if HF_DEVICE_CODE && !HF_HIP_DEVICE_CODE
  asm volatile("st.relaxed.sys.v2.u64 [%0], {%1, %2};" ::"l"(at), "l"(first), "l"(second)
               : "memory");
#else
  detail::store<Scope::system, false>(at, first);
  detail::store<Scope::system, false>(at + 1, second);
#endif
}

/// Stores one flagged word at system scope, relaxed.
HF_HD inline void store_flagged_word(std::uint64_t* at, std::uint64_t word) {
  detail::store<Scope::system, false>(at, word);
}

/// Loads two flagged words at `at` (16-byte aligned) at system scope, relaxed.
HF_HD inline void load_flagged_pair(const std::uint64_t* at, std::uint64_t& first,
                                    std::uint64_t& second) {
#if HF_DEVICE_CODE && !HF_HIP_DEVICE_CODE
  asm volatile("ld.relaxed.sys.v2.u64 {%0, %1}, [%2];"
               : "=l"(first), "=l"(second)
               : "l"(at)
               : "memory");
#else
  first = detail::load<Scope::system, false>(at);
  second = detail::load<Scope::system, false>(at + 1);
#endif
}

/// Loads one flagged word at system scope, relaxed.
HF_HD inline std::uint64_t load_flagged_word(const std::uint64_t* at) {
  return detail::load<Scope::system, false>(at);
}

/// Who waits on flagged words, and how a failure names them: the flag array and index of the
/// failure record (the node transport: node_arrival[peer]), the waiter, and whether the wait
/// reads the host's abort flag.
struct FlaggedWait {
  const WaitControl* control;
  std::uint32_t array_id;
  std::uint32_t index;
  std::uint32_t waiter;
  AbortReads abort_reads;
};

/// Waits until both words of the pair at `at` carry `epoch`, and returns them; false when the
/// wait failed (deadline or abort, recorded for the device side with the flag last seen).
HF_HD inline bool wait_flagged_pair(const std::uint64_t* at, std::uint64_t epoch,
                                    const FlaggedWait& how, std::uint64_t& first,
                                    std::uint64_t& second) {
  const auto ready = [&] {
    load_flagged_pair(at, first, second);
    return flagged_by(first, epoch) && flagged_by(second, epoch);
  };
  const auto seen = [&] {
    return std::uint64_t{flagged_by(first, epoch) ? word_flag(second) : word_flag(first)};
  };
  return wait_until_or_leave(ready, seen, how.array_id, how.index, epoch, *how.control,
                             Side::device, how.waiter, how.abort_reads, 0, NeverLeave{}) ==
         WaitOutcome::ready;
}

/// Waits until the word at `at` carries `epoch`, and returns it in `word` (see wait_flagged_pair).
HF_HD inline bool wait_flagged_word(const std::uint64_t* at, std::uint64_t epoch,
                                    const FlaggedWait& how, std::uint64_t& word) {
  const auto ready = [&] {
    word = load_flagged_word(at);
    return flagged_by(word, epoch);
  };
  const auto seen = [&] { return std::uint64_t{word_flag(word)}; };
  return wait_until_or_leave(ready, seen, how.array_id, how.index, epoch, *how.control,
                             Side::device, how.waiter, how.abort_reads, 0, NeverLeave{}) ==
         WaitOutcome::ready;
}

}  // namespace haloflag::notify
