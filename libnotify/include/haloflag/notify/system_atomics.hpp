/// @file
/// System-scope acquire/release accesses on 64-bit words in host-mapped memory (rule 3).
///
/// Device code names scope and order explicitly (libcu++'s cuda::atomic_ref on CUDA, the
/// __hip_atomic builtins on HIP); host code uses std::atomic_ref. Flags get only loads and
/// stores, on purpose: a flag has a single writer, and CPU<->GPU read-modify-write on mapped
/// memory is not atomic on PCIe hosts (rule 1). Read-modify-writes are offered only on words
/// that one side alone modifies (claim_same_side, count_in_same_side).
#pragma once

#include <cstdint>

#include "haloflag/notify/portability.hpp"

#if HF_DEVICE_CODE && !HF_HIP_DEVICE_CODE
#include <cuda/atomic>
#endif
#if !HF_DEVICE_CODE
#include <atomic>
#endif

namespace haloflag::notify {

/// The scope of a flag word: system for words the other side (or another process) reads,
/// same_side for words only one side's threads read and write. A word keeps one scope:
/// docs/design.md's protocol table names it, and tests/docs/protocol_scope_test.py checks every
/// access.
enum class Scope { system, same_side };

namespace detail {

// Each operation below is said in two ways: the __hip_atomic builtins in HIP device code, and an
// atomic_ref elsewhere, libcu++'s in CUDA device code (it names the scope) and the standard
// library's in host code, with the orders of the same library (`atomics`).
#if HF_HIP_DEVICE_CODE
/// `scope` as the HIP builtins name it.
template <Scope scope>
inline constexpr int hip_scope =
    scope == Scope::system ? __HIP_MEMORY_SCOPE_SYSTEM : __HIP_MEMORY_SCOPE_AGENT;
#elif HF_DEVICE_CODE
namespace atomics = cuda::std;
/// A reference through which a 64-bit word is accessed at `scope`.
template <Scope scope>
using WordRef = cuda::atomic_ref<std::uint64_t, scope == Scope::system ? cuda::thread_scope_system
                                                                       : cuda::thread_scope_device>;
#else
namespace atomics = std;
template <Scope>
using WordRef = std::atomic_ref<std::uint64_t>;
#endif

/// One load or store at `scope`. At system scope a GPU's release first waits for its earlier
/// writes to host memory to be performed, which a gate between one GPU's own blocks does not
/// need.
template <Scope scope, bool acquire>
HF_HD inline std::uint64_t load(const std::uint64_t* word) {
  // atomic_ref needs a non-const reference; the access itself is a pure load.
  auto* mutable_word = const_cast<std::uint64_t*>(word);
#if HF_HIP_DEVICE_CODE
  return __hip_atomic_load(mutable_word, acquire ? __ATOMIC_ACQUIRE : __ATOMIC_RELAXED,
                           hip_scope<scope>);
#else
  return WordRef<scope>(*mutable_word)
      .load(acquire ? atomics::memory_order_acquire : atomics::memory_order_relaxed);
#endif
}

template <Scope scope, bool release = true>
HF_HD inline void store(std::uint64_t* word, std::uint64_t value) {
#if HF_HIP_DEVICE_CODE
  __hip_atomic_store(word, value, release ? __ATOMIC_RELEASE : __ATOMIC_RELAXED, hip_scope<scope>);
#else
  WordRef<scope>(*word).store(
      value, release ? atomics::memory_order_release : atomics::memory_order_relaxed);
#endif
}

/// How an add is ordered: relaxed (a count that publishes nothing), release, or both ways.
enum class AddOrder { relaxed, release, acq_rel };

/// Adds `amount` at `scope` in `order`; returns the value before.
template <Scope scope, AddOrder order>
HF_HD inline std::uint64_t fetch_add(std::uint64_t* word, std::uint64_t amount) {
#if HF_HIP_DEVICE_CODE
  constexpr int hip_order = order == AddOrder::relaxed   ? __ATOMIC_RELAXED
                            : order == AddOrder::release ? __ATOMIC_RELEASE
                                                         : __ATOMIC_ACQ_REL;
  return __hip_atomic_fetch_add(word, amount, hip_order, hip_scope<scope>);
#else
  constexpr auto memory_order = order == AddOrder::relaxed   ? atomics::memory_order_relaxed
                                : order == AddOrder::release ? atomics::memory_order_release
                                                             : atomics::memory_order_acq_rel;
  return WordRef<scope>(*word).fetch_add(amount, memory_order);
#endif
}

/// A fence at `scope`: release, or sequentially consistent when `seq_cst`.
template <Scope scope, bool seq_cst>
HF_HD inline void fence() {
#if HF_HIP_DEVICE_CODE
  // "": the system scope, "agent": the GPU's. The builtin's order and scope must be constants of
  // their own, not a template's.
  if constexpr (scope == Scope::system && seq_cst) {
    __builtin_amdgcn_fence(__ATOMIC_SEQ_CST, "");
  } else if constexpr (scope == Scope::system) {
    __builtin_amdgcn_fence(__ATOMIC_RELEASE, "");
  } else if constexpr (seq_cst) {
    __builtin_amdgcn_fence(__ATOMIC_SEQ_CST, "agent");
  } else {
    __builtin_amdgcn_fence(__ATOMIC_RELEASE, "agent");
  }
#elif HF_DEVICE_CODE
  cuda::atomic_thread_fence(seq_cst ? atomics::memory_order_seq_cst : atomics::memory_order_release,
                            scope == Scope::system ? cuda::thread_scope_system
                                                   : cuda::thread_scope_device);
#else
  std::atomic_thread_fence(seq_cst ? atomics::memory_order_seq_cst : atomics::memory_order_release);
#endif
}

}  // namespace detail

/// Release store at system scope: visible to the other side (GPU or host) with what preceded it.
HF_HD inline void store_release_system(std::uint64_t* word, std::uint64_t value) {
  detail::store<Scope::system>(word, value);
}

/// Relaxed store at system scope, for a word that publishes no payload (rule 3): a permission
/// whose earlier reads are complete before it (a barrier stands between), or a mark of
/// progress. A GPU's system-scope release first waits until its earlier writes are performed
/// everywhere, which takes microseconds on an epoch's critical path.
HF_HD inline void store_relaxed_system(std::uint64_t* word, std::uint64_t value) {
  detail::store<Scope::system, false>(word, value);
}

/// Acquire load at system scope: sees what the other side wrote before its release store.
HF_HD inline std::uint64_t load_acquire_system(const std::uint64_t* word) {
  return detail::load<Scope::system, true>(word);
}

/// For reads that publish nothing: diagnostics (the value last seen in a failure record), the
/// abort flag, and checks of a word this side itself wrote.
HF_HD inline std::uint64_t load_relaxed_system(const std::uint64_t* word) {
  return detail::load<Scope::system, false>(word);
}

/// A release store to, and loads of, a word that only one side (GPU blocks, or host threads)
/// reads and writes, at that side's scope.
HF_HD inline void store_release_same_side(std::uint64_t* word, std::uint64_t value) {
  detail::store<Scope::same_side>(word, value);
}

/// Relaxed store to a same-side word that publishes nothing (a number checked by the side's
/// own blocks): no wait for earlier writes.
HF_HD inline void store_relaxed_same_side(std::uint64_t* word, std::uint64_t value) {
  detail::store<Scope::same_side, false>(word, value);
}

/// Acquire load of a same-side word.
HF_HD inline std::uint64_t load_acquire_same_side(const std::uint64_t* word) {
  return detail::load<Scope::same_side, true>(word);
}

/// Relaxed load of a same-side word.
HF_HD inline std::uint64_t load_relaxed_same_side(const std::uint64_t* word) {
  return detail::load<Scope::same_side, false>(word);
}

/// For waits that serve words of either scope.
HF_HD inline std::uint64_t load_acquire(const std::uint64_t* word, Scope scope) {
  return scope == Scope::same_side ? load_acquire_same_side(word) : load_acquire_system(word);
}

/// Relaxed load at `scope`.
HF_HD inline std::uint64_t load_relaxed(const std::uint64_t* word, Scope scope) {
  return scope == Scope::same_side ? load_relaxed_same_side(word) : load_relaxed_system(word);
}

/// Claims a word that only one side (GPU threads, or host threads) ever modifies: 0 -> 1.
/// Used for the failure record, where the first waiter that fails wins. Returns true if claimed.
HF_HD inline bool claim_same_side(std::uint64_t* word) {
  std::uint64_t expected = 0;
#if HF_HIP_DEVICE_CODE
  return __hip_atomic_compare_exchange_strong(word, &expected, std::uint64_t{1}, __ATOMIC_ACQ_REL,
                                              __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
#else
  return detail::WordRef<Scope::same_side>(*word).compare_exchange_strong(
      expected, std::uint64_t{1}, detail::atomics::memory_order_acq_rel);
#endif
}

/// Adds one to a counter that only one side (GPU blocks, or host threads) ever modifies, with
/// acquire-release order at that side's scope; returns the value before. Used to count the blocks
/// that finished their share of a message: the last one, having acquired every other block's
/// release, signals for all (release is cumulative).
/// `amount` counts several at once (a receive standing for all the pieces of its peer).
HF_HD inline std::uint64_t count_in_same_side(std::uint64_t* word, std::uint64_t amount = 1) {
  return detail::fetch_add<Scope::same_side, detail::AddOrder::acq_rel>(word, amount);
}

/// Adds `amount` to a counter that only one side modifies, relaxed at that side's scope; returns
/// the value before. For a count that publishes nothing, whose completion is a mark of progress
/// only: a GPU thread's release first waits until its own earlier stores are performed, and one
/// that went across NVLink takes microseconds to be.
HF_HD inline std::uint64_t count_relaxed_same_side(std::uint64_t* word, std::uint64_t amount) {
  return detail::fetch_add<Scope::same_side, detail::AddOrder::relaxed>(word, amount);
}

/// Raises a word that only one side (GPU blocks, or host threads) modifies to `value` unless it
/// already holds as much, at that side's scope; true for the one caller that raised it. Lets one
/// of many groups that reach the same point of an epoch act for all.
HF_HD inline bool raise_same_side(std::uint64_t* word, std::uint64_t value) {
#if HF_HIP_DEVICE_CODE
  return __hip_atomic_fetch_max(word, value, __ATOMIC_ACQ_REL, __HIP_MEMORY_SCOPE_AGENT) < value;
#elif HF_DEVICE_CODE
  return detail::WordRef<Scope::same_side>(*word).fetch_max(
             value, detail::atomics::memory_order_acq_rel) < value;
#else
  std::atomic_ref<std::uint64_t> ref(*word);
  std::uint64_t seen = ref.load(std::memory_order_acquire);
  while (seen < value) {
    if (ref.compare_exchange_weak(seen, value, std::memory_order_acq_rel)) return true;
  }
  return false;
#endif
}

/// Adds `amount` to a counter in another GPU's memory (or, on the host backend, another process's
/// shared memory) with a system-scope release: what this thread wrote and observed before is
/// visible to whoever acquires the sum. Only for words that the GPUs of one peer-to-peer pair
/// with native atomics modify, never the CPU (rule 1): the node transport's arrival counters.
HF_HD inline void add_release_system(std::uint64_t* word, std::uint64_t amount) {
  (void)detail::fetch_add<Scope::system, detail::AddOrder::release>(word, amount);
}

/// A system-scope release fence: this thread's earlier writes, and what it has observed (release
/// is cumulative), are performed for every observer before its later writes. A node block fences
/// once after its piece, before it counts the piece in, so that the block completing the count
/// publishes every block's piece with one store into the peer's memory.
HF_HD inline void fence_release_system() { detail::fence<Scope::system, false>(); }

/// A device-scope (same side) release fence: this thread's earlier writes, and what it has
/// observed, are performed for every thread of its side before its later writes. For writes
/// that only this side reads (a rank's copies into its own ghost cells): on a GPU the system
/// scope's fence first waits for the bus, microseconds on an exchange's critical path.
HF_HD inline void fence_release_same_side() { detail::fence<Scope::same_side, false>(); }

/// A system-scope sequentially consistent fence: this thread's earlier stores are performed for
/// every observer before its later loads. Two sides that each store their own word, fence and
/// then load the other's cannot both miss the other's store: a resident kernel deciding to leave
/// and the host promising it a start settle who goes on this way (idle_exit.hpp), without a
/// read-modify-write across the bus (rule 1).
HF_HD inline void fence_seq_cst_system() { detail::fence<Scope::system, true>(); }

}  // namespace haloflag::notify
