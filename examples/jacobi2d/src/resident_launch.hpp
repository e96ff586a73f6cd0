// Everything the resident kernel needs for a run of many iterations, as plain data passed to the
// kernel by value (device addresses on a GPU, host addresses on the host backend).
#pragma once

#include <cstdint>

#include "haloflag/examples/resident_kernel.hpp"
#include "haloflag/kernels/device_plan.hpp"
#include "interior_deal.hpp"
#include "norm_slots.hpp"

namespace jacobi2d {

template <class Real>
struct ResidentLaunch {
  // plans[k] packs from and unpacks into field k: the plan of the field an iteration writes.
  haloflag::kernels::DevicePlan plans[2];
  Real* planes[2];  // the fields' middle planes (PlanePair::plane)
  std::int64_t nx;
  std::int64_t rows;
  int first_in;  // the field the first iteration reads
  int iterations;
  std::uint64_t first_epoch;  // exchange epoch of the first iteration (Exchange::epoch() + 1)
  bool exchange;  // false: the updates alone, to time them
  // The finish of each exchange but the run's last tells the node peers where the next one goes
  // (VariantSettings::next_exchange_told).
  bool tell_next;
  // The exchange's sends update the first and last row, with no grid barrier between them and
  // the start (resident_steps.hpp; VariantSettings::sends_update_cells). Set only where each of
  // those rows' cells is in one send: a rank of two rows or more, whose plans take no lines.
  bool sends_update_cells;
  InteriorDeal interior;  // how the interior is dealt among the grid's members
  int nccheck;    // iterations i with i % nccheck == 0 compute the norm
  double* norms;  // two accumulators, check k adding into norms[k % 2]
  NormSlots slots;
};

// The kernel run asynchronously over these arguments: a cooperative GPU grid (GpuSide), or on
// the host backend a team of CPU threads (haloflag/examples/host_resident_kernel.hpp).
template <class Real>
using ResidentKernel = haloflag::examples::ResidentKernel<ResidentLaunch<Real>>;

}  // namespace jacobi2d
