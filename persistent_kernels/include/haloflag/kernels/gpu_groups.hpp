/// @file
/// Groups (block_programs.hpp) made of GPU threads, for CUDA and HIP translation units: the
/// exchange engine's kernels use ThreadBlockGroup; a caller's own kernel that packs and unpacks
/// through embedded_api.hpp uses either (CooperativeGridGroup for its grid barriers).
///
///   ThreadBlockGroup      one thread block; sync() = __syncthreads()
///   CooperativeGridGroup  the whole grid of a cooperative launch (cudaLaunchCooperativeKernel);
///                         sync() = grid barrier
///
/// Their host branches are never taken: the block programs are __host__ __device__ templates,
/// so these types must compile for the host, but they are only used inside kernels.
#pragma once

#if !defined(__CUDACC__) && !defined(__HIPCC__)
#error "haloflag/kernels/gpu_groups.hpp is for CUDA or HIP sources; host code uses host_groups.hpp"
#endif

#include "haloflag/notify/gpu_runtime.hpp"
#include "haloflag/notify/portability.hpp"

#if defined(HALOFLAG_HAVE_HIP)
#include <hip/hip_cooperative_groups.h>
#else
#include <cooperative_groups.h>
#endif

namespace haloflag::kernels {

/// One GPU thread block as a group.
struct ThreadBlockGroup {
  /// This thread's index in the block.
  HF_HD int thread() const {
#if HF_DEVICE_CODE
    return static_cast<int>(threadIdx.x);
#else
    return 0;
#endif
  }
  /// Threads in the block.
  HF_HD int size() const {
#if HF_DEVICE_CODE
    return static_cast<int>(blockDim.x);
#else
    return 1;
#endif
  }
  /// Barrier of the block's threads.
  HF_HD void sync() const {
#if HF_DEVICE_CODE
    __syncthreads();
#endif
  }
  /// Barrier; every thread returns thread 0's value, passed through shared memory.
  HF_HD int from_leader(int value) const {
#if HF_DEVICE_CODE
    __shared__ int slot;
    if (threadIdx.x == 0) slot = value;
    __syncthreads();
    const int result = slot;
    __syncthreads();  // nobody overwrites the slot before everyone read it
    return result;
#else
    return value;
#endif
  }
};

namespace detail {
/// The default broadcast slots of CooperativeGridGroup::from_leader. `static` gives each
/// translation unit its own pair (a header cannot define one shared device variable without
/// relocatable device code), and one pair per translation unit is enough because a grid that
/// uses them is cooperative and normally fills the GPU, so one runs at a time. Two cooperative
/// grids of one translation unit that may run at once must each pass their own slots.
static __device__ int cooperative_grid_broadcast[2];
}  // namespace detail

/// Every thread of the grid constructs its own object (the round counter is per thread).
class CooperativeGridGroup {
 public:
  /// Uses this translation unit's default broadcast slots (see above).
  CooperativeGridGroup() = default;
  /// Uses `broadcast_slots`: two ints of device memory this grid alone uses.
  HF_HD explicit CooperativeGridGroup(int* broadcast_slots) : slots_(broadcast_slots) {}

  /// This thread's index in the grid.
  HF_HD int thread() const {
#if HF_DEVICE_CODE
    return static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
#else
    return 0;
#endif
  }
  /// Threads in the grid.
  HF_HD int size() const {
#if HF_DEVICE_CODE
    return static_cast<int>(gridDim.x * blockDim.x);
#else
    return 1;
#endif
  }
  /// Barrier of the grid's threads.
  HF_HD void sync() const {
#if HF_DEVICE_CODE
    cooperative_groups::this_grid().sync();
#endif
  }
  /// Grid barrier; every thread returns grid thread 0's value, passed through device memory.
  /// Two slots used in turn: a slot is written again only after the barrier that follows every
  /// read of it.
  HF_HD int from_leader(int value) const {
#if HF_DEVICE_CODE
    int* slots = slots_ != nullptr ? slots_ : detail::cooperative_grid_broadcast;
    volatile int* slot = &slots[round_++ & 1u];
    if (thread() == 0) *slot = value;
    sync();
    return *slot;
#else
    (void)slots_;  // the host pass of a GPU compiler sees only this branch
    (void)round_;
    return value;
#endif
  }

 private:
  int* slots_ = nullptr;
  mutable unsigned round_ = 0;
};

}  // namespace haloflag::kernels
