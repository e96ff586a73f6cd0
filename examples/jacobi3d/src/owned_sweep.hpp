// The update of all owned cells in -> out on the backend, in two forms: run() has finished it
// when it returns (the conventional variant, whose exchange then reads `out`); enqueue() orders
// it on the sweep's stream and returns at once (the stream variant, whose exchange is ordered on
// the same stream). The stream is a GPU stream, or a HostQueue on the host backend. Real is the
// field's element type (float or double).
#pragma once

#include <array>
#include <memory>
#include <string>

#include "cell_update.hpp"
#include "haloflag/kernels/box.hpp"
#include "haloflag/notify/backend.hpp"
#include "haloflag/notify/work_stream.hpp"

namespace jacobi3d {

template <class Real>
class OwnedSweep {
 public:
  virtual ~OwnedSweep() = default;
  virtual void run(StencilKind stencil, const SweepFields<Real>& fields,
                   const haloflag::kernels::Box& owned) = 0;
  virtual void enqueue(StencilKind stencil, const SweepFields<Real>& fields,
                       const haloflag::kernels::Box& owned) = 0;
  // Where enqueue() orders its work; it lives as long as the sweep.
  virtual haloflag::notify::WorkStream stream() = 0;
  // Blocks until everything enqueued has run; throws when the stream or queue failed.
  virtual void synchronize() = 0;
  // The update alone, for the update-rate report: `iterations` steps one after another with
  // nothing between them, step i reading buffer (first_in + i) % 2 (steps[k] reads buffer k).
  // Returns their seconds: GPU events around them on a GPU, the steady clock on the host.
  virtual double time_updates(StencilKind stencil, const std::array<SweepFields<Real>, 2>& steps,
                              int first_in, const haloflag::kernels::Box& owned,
                              int iterations) = 0;
  virtual std::string describe(const haloflag::kernels::Box& owned) const = 0;
};

// `gpu_threads`: threads per block on a GPU backend. Defined for float and double.
template <class Real>
std::unique_ptr<OwnedSweep<Real>> make_owned_sweep(haloflag::notify::Backend backend,
                                                   int gpu_threads);

}  // namespace jacobi3d
