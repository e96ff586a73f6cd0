// The host backend's update: one CPU thread sweeps the owned box, the caller's own for run(),
// the queue's for enqueue().
#include <string>

#include "box_sweep.hpp"
#include "gpu_jacobi.hpp"
#include "haloflag/notify/host_queue.hpp"
#include "owned_sweep.hpp"

namespace jacobi3d {

namespace {

namespace hk = haloflag::kernels;

class HostOwnedSweep final : public OwnedSweep {
 public:
  void run(StencilKind stencil, const SweepFields& fields, const hk::Box& owned) override {
    sweep_box(stencil, fields, owned, 0, 1);
  }
  void enqueue(StencilKind stencil, const SweepFields& fields, const hk::Box& owned) override {
    queue_.enqueue([stencil, fields, owned] { sweep_box(stencil, fields, owned, 0, 1); });
  }
  haloflag::notify::WorkStream stream() override { return queue_; }
  void synchronize() override { queue_.synchronize(); }
  std::string describe(const hk::Box&) const override { return "update: 1 host thread"; }

 private:
  haloflag::notify::HostQueue queue_{"jacobi3d update queue"};
};

}  // namespace

std::unique_ptr<OwnedSweep> make_owned_sweep(haloflag::notify::Backend backend, int gpu_threads) {
  if (backend == haloflag::notify::Backend::host) return std::make_unique<HostOwnedSweep>();
  return make_gpu_owned_sweep(gpu_threads);
}

}  // namespace jacobi3d
