/// @file
/// Groups (block_programs.hpp) for the host backend, where the "device" is a team of CPU threads.
/// The exchange engine's host runner uses them, and so can a caller's own host-side "kernel" of
/// std::threads that drives an embedded exchange (embedded_api.hpp) on the host backend.
#pragma once

#include <array>
#include <atomic>
#include <barrier>

namespace haloflag::kernels {

/// A "thread block" of one CPU thread: it is its own leader and needs no barrier.
struct HostThreadGroup {
  /// Always 0: the only member.
  int thread() const { return 0; }
  /// Always 1.
  int size() const { return 1; }
  /// Nothing to wait for.
  void sync() const {}
  /// Returns `value`: the caller is the leader.
  int from_leader(int value) const { return value; }
};

/// A team of `blocks` CPU threads that all run at once, one block each, as one group (the
/// stacked grid): sync() is a std::barrier, from_leader passes thread 0's value through two
/// shared slots used in turn, as the GPU grid does. Every member needs its own object (block and
/// round are its own); the barrier and slots are shared by the team.
struct HostTeamGroup {
  std::barrier<>* barrier;  ///< shared by the team
  std::array<int, 2>* slots;  ///< shared by the team, used in turn
  int block;  ///< this member's index
  int blocks;  ///< members in the team
  mutable unsigned round = 0;  ///< which slot from_leader uses next

  /// This member's index.
  int thread() const { return block; }
  /// Members in the team.
  int size() const { return blocks; }
  /// Barrier of the team.
  void sync() const { barrier->arrive_and_wait(); }
  /// Thread 0's `value`, passed to every member.
  int from_leader(int value) const {
    std::atomic_ref<int> slot((*slots)[round++ & 1u]);
    if (block == 0) slot.store(value, std::memory_order_relaxed);
    sync();  // the barrier orders the store before every read
    return slot.load(std::memory_order_relaxed);
  }
};

}  // namespace haloflag::kernels
