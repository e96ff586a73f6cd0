// The conventional variant's update: all owned cells in -> out, on the backend, finished when
// the call returns (the exchange that follows reads `out`).
#pragma once

#include <memory>
#include <string>

#include "cell_update.hpp"
#include "haloflag/kernels/box.hpp"
#include "haloflag/notify/backend.hpp"

namespace jacobi3d {

class OwnedSweep {
 public:
  virtual ~OwnedSweep() = default;
  virtual void run(StencilKind stencil, const SweepFields& fields,
                   const haloflag::kernels::Box& owned) = 0;
  virtual std::string describe(const haloflag::kernels::Box& owned) const = 0;
};

// `gpu_threads`: threads per block on a GPU backend.
std::unique_ptr<OwnedSweep> make_owned_sweep(haloflag::notify::Backend backend, int gpu_threads);

}  // namespace jacobi3d
