// What the sender's GPU does in one round of a scenario, written once for GPU kernels (a block or
// a cooperative grid) and for the host backend's stand-in threads:
//   1. every thread writes its share of the send buffer; group barrier;
//   2. the leader release-stores the round's epoch into `ready` (the CPU may now send);
//   3. unless the scenario is sequential, the group keeps writing the target buffer, chunk by
//      chunk, until the leader sees the round's epoch in `stop` (the CPU's MPI_Send returned).
// The leader alone polls `stop`, the abort flag and the deadline, and hands its verdict to the
// whole group, so every thread leaves at the same chunk (a grid barrier that some blocks skip
// would hang the rest). A missed deadline is recorded in the control block, as wait_flag does.
#pragma once

#include <cstdint>

#include "haloflag/notify/clock.hpp"
#include "haloflag/notify/flag_array_view.hpp"
#include "haloflag/notify/flag_ops.hpp"
#include "haloflag/notify/portability.hpp"
#include "haloflag/notify/wait_control.hpp"

namespace haloflag::bench::interference {

// The 32-bit word `index` of a buffer after pass `pass` of round `epoch` wrote it (pass 0: the
// send buffer's content). Distinct per round, so the receiver can tell a stale buffer.
HF_HD inline std::uint32_t pattern_word(std::uint64_t epoch, std::uint32_t pass,
                                        std::uint64_t index) {
  return static_cast<std::uint32_t>(index * 2654435761u) ^
         static_cast<std::uint32_t>(epoch * 0x9E3779B9u) ^ pass;
}

// Words written between two looks at the stop flag: 1 MiB, or the whole buffer when smaller.
inline constexpr std::uint64_t kChunkWords = (std::uint64_t{1} << 20) / sizeof(std::uint32_t);

struct AccessPlan {
  std::uint32_t* send = nullptr;    // the MPI send buffer (device address of pinned host memory)
  std::uint32_t* target = nullptr;  // written after the notification; null: sequential (SSB)
  std::uint64_t words = 0;          // of the send buffer and of the target alike
  notify::FlagArrayView ready;      // device-written, one flag: the send buffer holds `epoch`
  notify::FlagArrayView stop;       // host-written, one flag: MPI_Send of `epoch` returned
  notify::WaitControl control;      // deadline of the writing after the notification, abort
  std::uint64_t epoch = 0;
  std::uint64_t stop_poll_ns = 0;   // least time between two reads of `stop` by the leader
  std::uint64_t* words_written = nullptr;  // out (mapped): target words written this round
};

enum AccessVerdict : int { keep_writing = 0, stop_seen = 1, gave_up = 2 };

// The leader's look at the stop flag, the abort flag and the deadline after one chunk.
struct StopWatch {
  std::uint64_t start_ns = 0;
  std::uint64_t last_poll_ns = 0;   // waited time of the last read of `stop`
  std::uint64_t next_abort_ns = 0;  // waited time at which the abort flag is read next

  HF_HD int verdict(const AccessPlan& plan) {
    const std::uint64_t waited = notify::clock_ns() - start_ns;
    if (waited - last_poll_ns < plan.stop_poll_ns) return keep_writing;
    last_poll_ns = waited;
    if (notify::poll_flag(plan.stop, 0, plan.epoch)) return stop_seen;
    notify::WaitOutcome outcome = notify::WaitOutcome::ready;
    if (waited >= next_abort_ns) {
      next_abort_ns = waited + notify::kAbortCheckIntervalNs;
      if (notify::abort_raised(plan.control)) outcome = notify::WaitOutcome::aborted;
    }
    if (outcome == notify::WaitOutcome::ready && waited >= plan.control.timeout_ns) {
      outcome = notify::WaitOutcome::timed_out;
    }
    if (outcome == notify::WaitOutcome::ready) return keep_writing;
    notify::record_wait_failure(plan.control, notify::Side::device, outcome, plan.stop, 0,
                                plan.epoch, notify::load_relaxed_system(plan.stop.word(0)), waited,
                                0);
    return gave_up;
  }
};

// Group: thread() (index in the group, 0 is the leader), size(), sync() (barrier, memory
// ordered), from_leader(int) (barrier; every thread returns the leader's value).
template <class Group>
HF_HD void access_buffers(const Group& group, const AccessPlan& plan) {
  const std::uint64_t first = group.thread();
  const std::uint64_t stride = group.size();
  const bool leader = first == 0;

  for (std::uint64_t i = first; i < plan.words; i += stride) {
    plan.send[i] = pattern_word(plan.epoch, 0, i);
  }
  group.sync();
  if (leader) notify::signal_flag(plan.ready, 0, plan.epoch);
  if (plan.target == nullptr) return;

  StopWatch watch;
  if (leader) watch.start_ns = notify::clock_ns();
  const std::uint64_t chunk = plan.words < kChunkWords ? plan.words : kChunkWords;
  std::uint64_t written = 0;
  for (std::uint64_t begin = 0;; begin += chunk) {
    if (begin >= plan.words) begin = 0;
    const std::uint64_t end = begin + chunk < plan.words ? begin + chunk : plan.words;
    const auto pass = static_cast<std::uint32_t>(written / plan.words + 1);
    for (std::uint64_t i = begin + first; i < end; i += stride) {
      plan.target[i] = pattern_word(plan.epoch, pass, i);
    }
    written += end - begin;
    const int verdict = group.from_leader(leader ? watch.verdict(plan) : keep_writing);
    if (verdict != keep_writing) {
      if (leader) *plan.words_written = written;
      return;
    }
  }
}

}  // namespace haloflag::bench::interference
