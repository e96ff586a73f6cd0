// The host backend's update: one CPU thread sweeps the owned box.
#include <string>

#include "box_sweep.hpp"
#include "gpu_jacobi.hpp"
#include "owned_sweep.hpp"

namespace jacobi3d {

namespace {

class HostOwnedSweep final : public OwnedSweep {
 public:
  void run(StencilKind stencil, const SweepFields& fields,
           const haloflag::kernels::Box& owned) override {
    sweep_box(stencil, fields, owned, 0, 1);
  }
  std::string describe(const haloflag::kernels::Box&) const override {
    return "update: 1 host thread";
  }
};

}  // namespace

std::unique_ptr<OwnedSweep> make_owned_sweep(haloflag::notify::Backend backend, int gpu_threads) {
  if (backend == haloflag::notify::Backend::host) return std::make_unique<HostOwnedSweep>();
  return make_gpu_owned_sweep(gpu_threads);
}

}  // namespace jacobi3d
