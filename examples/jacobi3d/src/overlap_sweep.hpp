// The update of the conventional_overlap variant in two parts that run side by side: the
// boundary layer (the cells the halo messages send) first, on a high-priority stream, and the
// interior on a second stream, so that the exchange can start as soon as the boundary is done
// and run while the interior updates. On the host backend the boundary runs on the caller's
// thread and the interior on a HostQueue's. Real is the field's element type (float or double).
#pragma once

#include <array>
#include <memory>
#include <string>

#include "cell_update.hpp"
#include "haloflag/kernels/box.hpp"
#include "haloflag/notify/backend.hpp"
#include "sweep_regions.hpp"

namespace jacobi3d {

template <class Real>
class OverlapSweep {
 public:
  virtual ~OverlapSweep() = default;
  // Orders the boundary layer's update of one step after both parts of the step before (which
  // wrote the buffer it reads and read the buffer it writes). Returns at once on a GPU.
  virtual void enqueue_boundary(StencilKind stencil, const SweepFields<Real>& fields,
                                const BoundaryLayer& boundary) = 0;
  // Orders the interior's update of the same step, beside its boundary's. Returns at once.
  virtual void enqueue_interior(StencilKind stencil, const SweepFields<Real>& fields,
                                const haloflag::kernels::Box& interior) = 0;
  // Block until the last enqueued boundary (interior) update is done; throw when it failed.
  virtual void wait_boundary() = 0;
  virtual void wait_interior() = 0;
  // The update alone, for the update-rate report: `iterations` steps of both parts with nothing
  // between them, step i reading buffer (first_in + i) % 2 (steps[k] reads buffer k). Returns
  // their seconds: GPU events around them on a GPU, the steady clock on the host.
  virtual double time_updates(StencilKind stencil, const std::array<SweepFields<Real>, 2>& steps,
                              int first_in, const SweepRegions& regions, int iterations) = 0;
  virtual std::string describe(const SweepRegions& regions) const = 0;
};

// `gpu_threads`: threads per block on a GPU backend. Defined for float and double.
template <class Real>
std::unique_ptr<OverlapSweep<Real>> make_overlap_sweep(haloflag::notify::Backend backend,
                                                       int gpu_threads);

}  // namespace jacobi3d
