// A column run of the resident kernel's interior, walked by a CUDA block of kTileCells threads
// through planes staged in shared memory. The walk in registers (update_run_lane) has one plane
// of loads in flight per thread, and the resident grid holds half the threads an SM can (its
// registers go to the exchange), which leaves the memory idle for much of the update. Here the
// block copies the next planes of its tile into shared memory asynchronously (cp.async): several
// planes are in flight, and no register waits for them. Each cell is summed from the same values
// in the same order as update_cell, so the results stay bit-identical.
#pragma once

#include <cstdint>

#include "box_sweep.hpp"
#include "cell_update.hpp"
#include "haloflag/kernels/box.hpp"

#if defined(__CUDA_ARCH__)
#include <cuda_pipeline.h>
#endif

namespace jacobi3d {

// The planes of the tile a block holds at once: the two a step reads (the cells' plane and the
// one above), the one the step before read (a slot is refilled one step after its last read, once
// the block has met at that step's barrier), and nine on their way: with three, the steps still
// waited for memory. Each costs a block a plane of shared memory (2.7 KB in double, 32.6 KB in
// all, so 4 blocks an SM still fit).
inline constexpr std::uint32_t kStagedPlanes = 12;
// Longer runs than the register walk's (kMaxColumnRun): each run starts with its ring empty.
inline constexpr std::uint32_t kStagedMaxRun = 64;
// The shortest runs the staged walk takes: its ring fills at the start of every run, and at
// runs of 16 planes the register walk was the faster one (the column-walk record in
// docs/results/h200/2026-12-01_column_prefetch).
inline constexpr std::uint32_t kStagedMinRun = 32;

// The runs `blocks` blocks of `threads` take of `box`'s interior through shared memory, or runs
// of no planes where they do not: blocks of one tile's threads whose runs (at most
// kStagedMaxRun planes) come out at kStagedMinRun or more. The kernel sizes its sweep with it
// once; the host asks staged_walk_pays to choose the kernel with the staged walk, which alone
// holds the ring: its shared memory slows the sweeps that do not stage.
HF_HD inline ColumnRuns staged_runs(const haloflag::kernels::Box& box, std::uint32_t blocks,
                                    std::uint32_t threads) {
  if (threads != kTileCells) return ColumnRuns{0, 0, 0, 0};
  const ColumnRuns runs = column_runs(box, blocks, kStagedMaxRun);
  return runs.run >= kStagedMinRun ? runs : ColumnRuns{0, 0, 0, 0};
}
HF_HD inline bool staged_walk_pays(const haloflag::kernels::Box& box, std::uint32_t blocks,
                                   std::uint32_t threads) {
  return staged_runs(box, blocks, threads).run != 0;
}
// A staged plane: the tile and a ring of one cell around it.
inline constexpr std::uint32_t kStageX = kTileX + 2;
inline constexpr std::uint32_t kStageY = kTileY + 2;
inline constexpr std::uint32_t kStageCells = kStageX * kStageY;

#if defined(__CUDA_ARCH__)

// The cells a thread copies of each staged plane of a run: at most kStagedCopies, each at slot
// cell `to[k]` from `from[k]` cells past the plane's corner in the field (the corner of plane 0 is
// the cell at x - 1, y - 1 and z - 1 of the run's first cell). Worked out once a run, so that a
// plane's copies cost an add and a copy each; only the cells of the field's box and its ring are
// copied (`on`).
inline constexpr std::uint32_t kStagedCopies = (kStageCells + kTileCells - 1) / kTileCells;
struct StagedCopies {
  std::int64_t from[kStagedCopies];
  bool on[kStagedCopies];
};

__device__ inline StagedCopies staged_copies(std::int64_t first, std::uint32_t width,
                                             std::uint32_t height, std::int64_t sy,
                                             std::uint32_t lane) {
  StagedCopies copies{};
#pragma unroll
  for (std::uint32_t k = 0; k < kStagedCopies; ++k) {
    const std::uint32_t at = lane + k * kTileCells;
    const std::uint32_t row = at / kStageX;
    const std::uint32_t column = at - row * kStageX;
    copies.on[k] = at < kStageCells && column < width && row < height;
    copies.from[k] = first + row * sy + column;
  }
  return copies;
}

// The copies of plane `plane` of the run into its slot; one commit a call (empty where nothing is
// left to copy), so that the block counts alike.
template <class Real>
__device__ inline void stage_plane(Real (*stage)[kStageCells], const Real* in,
                                   const StagedCopies& copies, std::int64_t sz,
                                   std::uint32_t plane, std::uint32_t planes,
                                   std::uint32_t lane) {
  if (plane < planes) {
    Real* slot = stage[plane % kStagedPlanes];
    const Real* corner = in + plane * sz;
#pragma unroll
    for (std::uint32_t k = 0; k < kStagedCopies; ++k) {
      if (copies.on[k]) {
        __pipeline_memcpy_async(slot + lane + k * kTileCells, corner + copies.from[k],
                                sizeof(Real));
      }
    }
  }
  __pipeline_commit();
}

// Column run `item` of `box` (as update_run_lane numbers them), by all kTileCells threads of the
// block, `lane` this thread's index; every thread must call it, for the block meets at a barrier
// at every plane.
template <class Real>
__device__ void update_run_staged(StencilKind kind, const SweepFields<Real>& fields,
                                  const haloflag::kernels::Box& box, const ColumnRuns& runs,
                                  std::uint32_t item, std::uint32_t lane) {
  __shared__ Real stage[kStagedPlanes][kStageCells];
  const std::uint32_t run_z = item / runs.tiles();
  const std::uint32_t tile_index = item - run_z * runs.tiles();
  const std::uint32_t tile_y = tile_index / runs.tiles_x;
  const std::uint32_t x0 = (tile_index - tile_y * runs.tiles_x) * kTileX;
  const std::uint32_t y0 = tile_y * kTileY;
  const std::uint32_t z0 = run_z * runs.run;
  const auto nx = static_cast<std::uint32_t>(box.extent[0]);
  const auto ny = static_cast<std::uint32_t>(box.extent[1]);
  const auto nz = static_cast<std::uint32_t>(box.extent[2]);
  const std::uint32_t cells_x = nx - x0 < kTileX ? nx - x0 : kTileX;
  const std::uint32_t cells_y = ny - y0 < kTileY ? ny - y0 : kTileY;
  const std::uint32_t cells_z = nz - z0 < runs.run ? nz - z0 : runs.run;
  const std::int64_t sy = fields.stride_y;
  const std::int64_t sz = fields.stride_z;
  const std::int64_t first = (box.begin[2] + z0 - 1) * sz + (box.begin[1] + y0 - 1) * sy +
                            box.begin[0] + x0 - 1;
  const StagedCopies copies = staged_copies(first, cells_x + 2, cells_y + 2, sy, lane);
  const std::uint32_t planes = cells_z + 2;  // the run's planes and one below and above
  const std::uint32_t lane_x = lane % kTileX;
  const std::uint32_t lane_y = lane / kTileX;
  const bool mine = lane_x < cells_x && lane_y < cells_y;
  const std::uint32_t at = (lane_y + 1) * kStageX + lane_x + 1;
  Real* out = fields.out + first + sz + sy + 1 + lane_y * sy + lane_x;

  __syncthreads();  // the run before has read every slot
  for (std::uint32_t plane = 0; plane + 1 < kStagedPlanes; ++plane) {
    stage_plane(stage, fields.in, copies, sz, plane, planes, lane);
  }
  // The plane below the first cell, and at 27 points the cells' own plane, before the walk: a
  // step reads only the two planes its slot ring keeps for it.
  __pipeline_wait_prior(kStagedPlanes - 3);
  __syncthreads();
  const bool seven = kind == StencilKind::seven_point;
  Real below = seven ? stage[0][at] : plane_sum(stage[0], at, kStageX);
  Real center = seven ? Real(0) : plane_sum(stage[1], at, kStageX);
  for (std::uint32_t p = 0; p < cells_z; ++p, out += sz) {
    stage_plane(stage, fields.in, copies, sz, p + kStagedPlanes - 1, planes, lane);
    __pipeline_wait_prior(kStagedPlanes - 3);  // planes up to p + 2 have landed, from this
    __syncthreads();                           // thread's copies and from everyone's
    const Real* middle = stage[(p + 1) % kStagedPlanes];
    const Real* top = stage[(p + 2) % kStagedPlanes];
    if (seven) {
      const Real mid = middle[at];
      if (mine) *out = seven_point_mean(mid, below, top[at], middle, at, kStageX);
      below = mid;
      continue;
    }
    const Real above = plane_sum(top, at, kStageX);
    if (mine) *out = mean_of_planes(below, center, above);
    below = center;
    center = above;
  }
  __pipeline_wait_prior(0);
}

#endif  // __CUDA_ARCH__

}  // namespace jacobi3d
