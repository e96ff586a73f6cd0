// The update of all owned cells in -> out on the backend, in two forms: run() has finished it
// when it returns (the conventional variant, whose exchange then reads `out`); enqueue() and
// enqueue_boundary() order it on the sweep's stream and return at once (the stream variant, which
// updates the boundary layer, starts its exchange on the same stream, then updates the interior
// while the messages fly). The stream is a GPU stream, or a HostQueue on the host backend. Real is the
// field's element type (float or double).
#pragma once

#include <array>
#include <memory>
#include <string>

#include "cell_update.hpp"
#include "haloflag/kernels/box.hpp"
#include "haloflag/notify/backend.hpp"
#include "haloflag/notify/work_stream.hpp"
#include "sweep_regions.hpp"

namespace jacobi3d {

template <class Real>
class OwnedSweep {
 public:
  virtual ~OwnedSweep() = default;
  virtual void run(StencilKind stencil, const SweepFields<Real>& fields,
                   const haloflag::kernels::Box& owned) = 0;
  virtual void enqueue(StencilKind stencil, const SweepFields<Real>& fields,
                       const haloflag::kernels::Box& owned) = 0;
  // The boundary layer's update, ordered on the sweep's stream like enqueue().
  virtual void enqueue_boundary(StencilKind stencil, const SweepFields<Real>& fields,
                                const BoundaryLayer& boundary) = 0;
  // Where enqueue() orders its work; it lives as long as the sweep.
  virtual haloflag::notify::WorkStream stream() = 0;
  // Blocks until everything enqueued has run; throws when the stream or queue failed.
  virtual void synchronize() = 0;
  // The update alone, for the update-rate report: `iterations` steps one after another with
  // nothing between them, step i reading buffer (first_in + i) % 2 (steps[k] reads buffer k);
  // each step the owned box, or with `boundary_first` the boundary layer and then the interior,
  // as the variant updates it. Returns their seconds: GPU events around them on a GPU, the
  // steady clock on the host.
  virtual double time_updates(StencilKind stencil, const std::array<SweepFields<Real>, 2>& steps,
                              int first_in, const SweepRegions& regions, bool boundary_first,
                              int iterations) = 0;
  virtual std::string describe(const haloflag::kernels::Box& owned) const = 0;
};

// `gpu_threads`: threads per block on a GPU backend. Defined for float and double.
template <class Real>
std::unique_ptr<OwnedSweep<Real>> make_owned_sweep(haloflag::notify::Backend backend,
                                                   int gpu_threads);

}  // namespace jacobi3d
