// Everything the resident kernel needs for a run of many iterations, as plain data passed to
// the kernel by value (device addresses on a GPU, host addresses on the host backend). Real is
// the field's element type (float or double).
#pragma once

#include <cstdint>

#include "cell_update.hpp"
#include "haloflag/examples/resident_kernel.hpp"
#include "haloflag/kernels/device_plan.hpp"
#include "sweep_regions.hpp"

namespace jacobi3d {

template <class Real>
struct ResidentLaunch {
  // plans[k] packs from and unpacks into buffer k: the plan of the buffer an iteration writes.
  haloflag::kernels::DevicePlan plans[2];
  Real* buffers[2];
  std::int64_t stride_y;
  std::int64_t stride_z;
  SweepRegions regions;
  StencilKind stencil;
  int first_in;               // the buffer the first iteration reads
  int iterations;
  std::uint64_t first_epoch;  // exchange epoch of the first iteration (Exchange::epoch() + 1)
  // Every peer over node or self: the kernel starts each exchange itself and splits it over the
  // whole grid (haloflag/kernels/embedded_exchange.hpp); else one block per message, with the
  // host's start() and finish() per iteration.
  bool whole_exchange;
  // The update alone, for the update-rate report: the same sweeps and grid barriers with every
  // exchange step left out (the plans are not read, the ghost cells not refreshed).
  bool updates_only;
  // The finish of each exchange but the run's last tells the node peers where the next one goes
  // (VariantSettings::next_exchange_told).
  bool tell_next;
  // The whole exchange's sends update the boundary cells they send, with no grid barrier
  // between the boundary update and the start (VariantSettings::sends_update_cells). Every
  // boundary cell is in a send: each axis is periodic, and a face's send spans the whole face.
  bool sends_update_cells;
  // A zeroed word of the backend's memory from which the blocks take the interior's last rounds
  // of column runs (interior_by_counter.hpp; RunSettings::interior_by_counter); null: every run
  // dealt out by block.
  std::uint64_t* interior_counter;
  // With the counter, the first blocks that sweep no interior: those that move send pieces,
  // where the others take it in one round (spared_send_blocks); 0 for the update alone.
  std::uint32_t spared_blocks;
};

// The kernel run asynchronously over these arguments: a cooperative GPU grid (GpuSide), or on
// the host backend a team of CPU threads (haloflag/examples/host_resident_kernel.hpp).
template <class Real>
using ResidentKernel = haloflag::examples::ResidentKernel<ResidentLaunch<Real>>;

}  // namespace jacobi3d
