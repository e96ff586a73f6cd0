// What one block of each exchange kernel does, written once over a "group" so that the CUDA/HIP
// kernels and the host backend's CPU threads run the same code.
//
// A group type provides (all HF_HD):
//   int  thread() const;          this member's index, 0 <= thread() < size()
//   int  size() const;            members in the group
//   void sync() const;            barrier over the group
//   int  from_leader(int) const;  barrier; every member returns the value member 0 passed
// A GPU block is a group (threadIdx, __syncthreads); so is the whole cooperative grid (grid
// barrier); on the host a block is a single thread and the stacked grid is a team of threads.
//
// Flag protocol (DESIGN.md §4): the group's members write the payload, meet at a barrier, then
// member 0 alone signals with a system-scope release store. Waits are done by member 0 with the plan's deadline and
// abort flag; the outcome reaches the other members through from_leader.
#pragma once

#include <cstdint>

#include "haloflag/kernels/exchange_plan.hpp"
#include "haloflag/kernels/pack_unpack.hpp"
#include "haloflag/notify/flag_ops.hpp"
#include "haloflag/notify/portability.hpp"

namespace haloflag::kernels {

// What a block learns from a wait.
enum BlockStatus : int {
  block_ok = 0,      // the flag shows the epoch: go on
  block_stop = 1,    // the host stored kStopEpoch: the resident kernel ends
  block_failed = 2,  // deadline or abort: recorded in the control block; the block ends
};

// The barrier orders every member's payload writes before member 0's system-scope release
// store, and release is cumulative: what member 0 has observed is published with the flag. One
// fence per group, not per thread: a system-scope fence in each of a whole grid's threads cost
// milliseconds per exchange.
// `time_slot` (null when untraced) gets the device time just before the signal.
template <class Group>
HF_HD void publish(const Group& group, const notify::FlagArrayView& flags, std::uint32_t index,
                   std::uint64_t epoch, std::uint64_t* time_slot = nullptr) {
  group.sync();
  if (group.thread() == 0) {
    stamp_device_time(time_slot);
    notify::signal_flag(flags, index, epoch);
  }
}

template <class Group>
HF_HD int leader_wait(const Group& group, const notify::FlagArrayView& flags, std::uint32_t index,
                      std::uint64_t epoch, const notify::WaitControl& control,
                      std::uint32_t waiter) {
  int status = block_ok;
  if (group.thread() == 0) {
    const notify::WaitOutcome outcome =
        notify::wait_flag(flags, index, epoch, control, notify::Side::device, waiter);
    if (outcome != notify::WaitOutcome::ready) {
      status = block_failed;
    } else if (notify::load_relaxed_system(flags.word(index)) == kStopEpoch) {
      status = block_stop;
    }
  }
  return group.from_leader(status);
}

// True once some device-side wait has failed: lets every block of a grid leave together.
HF_HD inline bool device_wait_failed(const notify::WaitControl& control) {
  const auto& record = control.words->failure[static_cast<std::uint32_t>(notify::Side::device)];
  return notify::load_relaxed_system(&record.claimed) != 0;
}

template <class Group>
HF_HD void pack_and_signal(const Group& group, const ExchangePlan& plan, std::uint32_t message,
                           std::uint64_t epoch) {
  if (group.thread() == 0) stamp_device_time(plan.times.send_slot(message, SendTime::pack_begin));
  pack_message(plan.sends[message], plan.fields, plan.send_buffer, group.thread(), group.size());
  publish(group, plan.send_ready, message, epoch, plan.times.send_slot(message, SendTime::packed));
}

template <class Group>
HF_HD int wait_and_unpack(const Group& group, const ExchangePlan& plan, std::uint32_t message,
                          std::uint64_t epoch, std::uint32_t waiter) {
  const int status = leader_wait(group, plan.unpack_ready, message, epoch, plan.control, waiter);
  if (status != block_ok) return status;
  if (group.thread() == 0) stamp_device_time(plan.times.recv_slot(message, RecvTime::ready_seen));
  unpack_message(plan.recvs[message], plan.fields, plan.recv_buffer, group.thread(),
                 group.size());
  publish(group, plan.unpack_done, message, epoch, plan.times.recv_slot(message, RecvTime::unpacked));
  return block_ok;
}

// One epoch of a resident pack block: wait until the host says the fields are ready, pack. The
// block of message 0 waits on the host's flag and relays what it saw (the epoch, or the stop
// value) through device memory; the others wait on the relay.
template <class Group>
HF_HD int resident_pack_step(const Group& group, const ExchangePlan& plan, std::uint32_t message,
                             std::uint64_t epoch) {
  const bool watches_host = message == 0;
  const notify::FlagArrayView& start = watches_host ? plan.pack_start : plan.pack_start_relay;
  const int status = leader_wait(group, start, 0, epoch, plan.control, message);
  if (watches_host && status != block_failed && group.thread() == 0) {
    notify::signal_flag(plan.pack_start_relay, 0, notify::load_relaxed_system(plan.pack_start.word(0)));
  }
  if (status != block_ok) return status;
  pack_and_signal(group, plan, message, epoch);
  return block_ok;
}

inline HF_HD bool is_long(const ExchangePlan& plan, const MessageLayout& layout) {
  return layout.bytes() >= plan.long_message_bytes;
}

// The stacked kernel (§4.2) for one block of a cooperative grid of `blocks` blocks:
//  1. short sends, each packed and signalled by one block (round robin);
//  2. long sends, one after another, each packed by the whole grid; a grid barrier, then one
//     thread signals;
//  3. short receives, each awaited and unpacked by one block (round robin);
//  4. long receives, one after another: block 0 awaits the flag, a grid barrier, the whole grid
//     unpacks, a grid barrier, one thread signals unpack_done.
// A failed wait is recorded in the control block; before each long receive block 0 checks the
// record and the grid's from_leader (a grid barrier plus a broadcast) tells every block, and all
// return together, so no block is left waiting in a barrier.
template <class Block, class Grid>
HF_HD void stacked_exchange(const Block& block, const Grid& grid, const ExchangePlan& plan,
                            std::uint32_t block_index, std::uint32_t blocks,
                            std::uint64_t epoch) {
  std::uint32_t shorts = 0;
  for (std::uint32_t m = 0; m < plan.send_count; ++m) {
    if (is_long(plan, plan.sends[m])) continue;
    if (shorts++ % blocks == block_index) pack_and_signal(block, plan, m, epoch);
  }
  for (std::uint32_t m = 0; m < plan.send_count; ++m) {
    if (is_long(plan, plan.sends[m])) pack_and_signal(grid, plan, m, epoch);
  }
  bool failed = false;
  shorts = 0;
  for (std::uint32_t r = 0; r < plan.recv_count && !failed; ++r) {
    if (is_long(plan, plan.recvs[r])) continue;
    if (shorts++ % blocks == block_index) {
      failed = wait_and_unpack(block, plan, r, epoch, block_index) != block_ok;
    }
  }
  for (std::uint32_t r = 0; r < plan.recv_count; ++r) {
    if (!is_long(plan, plan.recvs[r])) continue;
    // Block 0 waits; a failure anywhere (recorded in host memory) is read by its leader alone
    // and reaches the grid through device memory: host reads of one line by every block are
    // served one after another and cost microseconds each.
    int status = block_ok;
    if (block_index == 0) {
      status = failed ? block_failed
                      : leader_wait(block, plan.unpack_ready, r, epoch, plan.control, 0);
      if (status == block_ok && block.thread() == 0 && device_wait_failed(plan.control)) {
        status = block_failed;
      }
    }
    if (grid.from_leader(status) != block_ok) return;
    if (grid.thread() == 0) stamp_device_time(plan.times.recv_slot(r, RecvTime::ready_seen));
    unpack_message(plan.recvs[r], plan.fields, plan.recv_buffer, grid.thread(), grid.size());
    publish(grid, plan.unpack_done, r, epoch, plan.times.recv_slot(r, RecvTime::unpacked));
  }
}

}  // namespace haloflag::kernels
