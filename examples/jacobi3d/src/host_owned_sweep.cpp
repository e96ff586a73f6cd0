// The host backend's update: one CPU thread sweeps the owned box, the caller's own for run(),
// the queue's for enqueue().
#include <chrono>
#include <string>

#include "box_sweep.hpp"
#include "gpu_jacobi.hpp"
#include "haloflag/notify/host_queue.hpp"
#include "owned_sweep.hpp"

namespace jacobi3d {

namespace {

namespace hk = haloflag::kernels;

template <class Real>
class HostOwnedSweep final : public OwnedSweep<Real> {
 public:
  void run(StencilKind stencil, const SweepFields<Real>& fields, const hk::Box& owned) override {
    sweep_box(stencil, fields, owned, 0, 1);
  }
  void enqueue(StencilKind stencil, const SweepFields<Real>& fields,
               const hk::Box& owned) override {
    queue_.enqueue([stencil, fields, owned] { sweep_box(stencil, fields, owned, 0, 1); });
  }
  void enqueue_boundary(StencilKind stencil, const SweepFields<Real>& fields,
                        const BoundaryLayer& boundary) override {
    queue_.enqueue([stencil, fields, boundary] {
      sweep_boxes(stencil, fields, boundary.boxes, boundary.count, 0, 1);
    });
  }
  haloflag::notify::WorkStream stream() override { return queue_; }
  void synchronize() override { queue_.synchronize(); }
  double time_updates(StencilKind stencil, const std::array<SweepFields<Real>, 2>& steps,
                      int first_in, const SweepRegions& regions, bool boundary_first,
                      int iterations) override {
    queue_.synchronize();
    const auto begin = std::chrono::steady_clock::now();
    for (int i = 0; i < iterations; ++i) {
      const SweepFields<Real>& fields = steps[(first_in + i) & 1];
      if (boundary_first) {
        sweep_boxes(stencil, fields, regions.boundary.boxes, regions.boundary.count, 0, 1);
        sweep_box(stencil, fields, regions.interior, 0, 1);
      } else {
        sweep_box(stencil, fields, regions.owned, 0, 1);
      }
    }
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  }
  std::string describe(const hk::Box&) const override { return "update: 1 host thread"; }

 private:
  haloflag::notify::HostQueue queue_{"jacobi3d update queue"};
};

}  // namespace

template <class Real>
std::unique_ptr<OwnedSweep<Real>> make_owned_sweep(haloflag::notify::Backend backend,
                                                   int gpu_threads) {
  if (backend == haloflag::notify::Backend::host) return std::make_unique<HostOwnedSweep<Real>>();
  return GpuSide<Real>::owned_sweep(gpu_threads);
}

template std::unique_ptr<OwnedSweep<float>> make_owned_sweep<float>(haloflag::notify::Backend,
                                                                    int);
template std::unique_ptr<OwnedSweep<double>> make_owned_sweep<double>(haloflag::notify::Backend,
                                                                      int);

}  // namespace jacobi3d
