/// @file
/// Resident kernels that leave the GPU when idle (docs/design.md, "Resident kernels that leave
/// when idle"): how a resident grid waits for the next exchange's start.
///
/// Each resident grid has a watcher, the one block that waits on the host's start flag; the other
/// blocks (and the unpack grid, which follows pack block 0) wait on its relay in device memory.
/// Once the window passes with no start (counted from the end of the previous exchange on this
/// GPU), the watcher and the host settle who goes on, with a store, a sequentially consistent
/// fence and a load on each side:
///   watcher: says may_leave(e);  fence;  reads the promise
///   host:    promises e;         fence;  reads what the watcher says
/// At least one of them sees the other's store. A watcher that sees the promise stays and waits
/// for the start with the whole timeout; else it leaves, and first raises its grid's `left` word
/// to the grid's generation so that the followers leave too. A host that sees may_leave(e) waits
/// for the answer; one that sees left(e) launches the grid again, one generation on.
#pragma once

#include <cstdint>

#include "haloflag/kernels/block_waits.hpp"
#include "haloflag/kernels/detail/exchange_plan.hpp"
#include "haloflag/kernels/idle_exit_plan.hpp"
#include "haloflag/notify/clock.hpp"
#include "haloflag/notify/flag_ops.hpp"
#include "haloflag/notify/portability.hpp"
#include "haloflag/notify/system_atomics.hpp"

namespace haloflag::kernels {
namespace detail {

/// The watcher's idle check: the settling above, once the grid is quiet; after staying it
/// never leaves.
class WatcherIdleCheck {
 public:
  HF_HD WatcherIdleCheck(const ExchangePlan& plan, ResidentGrid grid, std::uint64_t generation,
                         std::uint64_t epoch)
      : plan_(plan), grid_(static_cast<std::uint32_t>(grid)), generation_(generation),
        epoch_(epoch) {}

  HF_HD bool operator()() {
    if (stays_ || !quiet()) return false;
    std::uint64_t* says = plan_.idle.watchers.word(grid_);
    notify::store_relaxed_system(says, watcher_word(epoch_, WatcherSays::may_leave));
    notify::fence_seq_cst_system();
    if (notify::load_relaxed_system(plan_.idle.promised.word(0)) >= epoch_) {
      notify::store_relaxed_system(says, watcher_word(epoch_, WatcherSays::stays));
      stays_ = true;
      return false;
    }
    // The followers' word first: the host launches the grid again once it reads `left`.
    notify::store_relaxed_same_side(plan_.idle.left.word(grid_), generation_);
    notify::store_release_system(says, watcher_word(epoch_, WatcherSays::left));
    return true;
  }

 private:
  // The window counts from the end of the previous exchange on this GPU, not from the watcher's
  // own part of it: a peer slow to deliver keeps the grid busy, and the next start follows the
  // end closely. An exchange that had ended when the window passed leaves it as it is.
  HF_HD bool quiet() {
    if (!previous_exchange_done()) {
      was_busy_ = true;
      return false;
    }
    if (!was_busy_) return true;
    if (done_at_ns_ == 0) done_at_ns_ = notify::clock_ns();
    return notify::clock_ns() - done_at_ns_ >= plan_.idle.window_ns;
  }

  HF_HD bool previous_exchange_done() const {
    if (plan_.exchange_done == nullptr || plan_.done_units == 0 || epoch_ <= 1) return true;
    return notify::load_relaxed_same_side(plan_.exchange_done) >= epoch_ - 1;
  }

  const ExchangePlan& plan_;
  std::uint32_t grid_;
  std::uint64_t generation_;
  std::uint64_t epoch_;
  bool stays_ = false;
  bool was_busy_ = false;
  std::uint64_t done_at_ns_ = 0;
};

/// A follower's idle check: its watcher has left.
struct FollowerIdleCheck {
  const std::uint64_t* left;
  std::uint64_t generation;
  HF_HD bool operator()() const { return notify::load_relaxed_same_side(left) >= generation; }
};

}  // namespace detail

/// Which launch of a resident grid a block belongs to: the grid, and its generation (1 for the
/// first launch, one more for each launch after the grid left).
struct ResidentLaunch {
  ResidentGrid grid;         ///< which grid the block is in
  std::uint64_t generation;  ///< which launch of it
};

/// The watcher of `launch`'s grid, at the grid's first epoch: the host reads that the launch has
/// begun (a relaunch still waiting for the GPU shows in its errors). One thread.
HF_HD inline void say_launched(const ExchangePlan& plan, ResidentLaunch launch,
                               std::uint64_t first_epoch) {
  if (!plan.idle.leaves()) return;
  notify::store_relaxed_system(plan.idle.watchers.word(static_cast<std::uint32_t>(launch.grid)),
                               watcher_word(first_epoch, WatcherSays::launched));
}

/// The watcher waits for exchange `epoch` to start on the host's pack_start flag: ok, stop (the
/// host stored kStopEpoch), failed (deadline or abort, recorded), or left (idle: the grid leaves).
/// `seen` gets what its leader saw in pack_start, which the watcher relays: read again, it would
/// cost the start another read across the bus.
template <ExchangeGroup Group>
HF_HD BlockStatus watch_start(const Group& group, const ExchangePlan& plan, ResidentLaunch launch,
                              std::uint64_t epoch, std::uint32_t waiter, std::uint64_t& seen) {
  const std::uint64_t* start = plan.pack_start.word(0);
  if (!plan.idle.leaves()) {
    return leader_wait_word(group, start, plan.pack_start.array_id, 0, epoch, plan.control,
                            waiter, notify::AbortReads::periodic, notify::Scope::system, &seen);
  }
  return leader_wait_word_or_leave(group, start, plan.pack_start.array_id, 0, epoch, plan.control,
                                   waiter, notify::AbortReads::periodic, notify::Scope::system,
                                   plan.idle.window_ns,
                                   detail::WatcherIdleCheck(plan, launch.grid, launch.generation,
                                                            epoch),
                                   &seen);
}

/// A follower waits for its watcher's `relay` (device memory) to show `epoch`, or for the
/// watcher to leave. `scope`: the relay's (docs/design.md, the table of words). `other_kernel`:
/// the follower is not in the watcher's kernel (the unpack grid), so a watcher of the next
/// generation may relay the start before this block has seen its own leave: a relay seen is the
/// start only while the grid has not left.
template <ExchangeGroup Group>
HF_HD BlockStatus follow_start(const Group& group, const ExchangePlan& plan,
                               ResidentLaunch launch, const std::uint64_t* relay,
                               notify::Scope scope, std::uint64_t epoch, std::uint32_t waiter,
                               bool other_kernel) {
  const std::uint32_t array_id = plan.pack_start.array_id;
  if (!plan.idle.leaves()) {
    return leader_wait_word(group, relay, array_id, 0, epoch, plan.control, waiter,
                            notify::AbortReads::none, scope);
  }
  const detail::FollowerIdleCheck left{plan.idle.left.word(static_cast<std::uint32_t>(launch.grid)),
                                       launch.generation};
  BlockStatus status = leader_wait_word_or_leave(group, relay, array_id, 0, epoch, plan.control,
                                                 waiter, notify::AbortReads::none, scope,
                                                 plan.idle.window_ns, left);
  if (other_kernel && status == BlockStatus::ok) {
    status = static_cast<BlockStatus>(group.from_leader(
        static_cast<int>(group.thread() == 0 && left() ? BlockStatus::left : BlockStatus::ok)));
  }
  return status;
}

/// A resident kernel's block that ends: unless its grid only left idle (its exchanges go on after
/// the relaunch), it releases every stream waiting in wait(stream) for an exchange that will
/// never be done. One thread.
HF_HD inline void end_resident_block(const ExchangePlan& plan, BlockStatus why) {
  if (why != BlockStatus::left) release_stream_waits(plan);
}

}  // namespace haloflag::kernels
