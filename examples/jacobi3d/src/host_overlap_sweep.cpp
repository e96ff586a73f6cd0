// The host backend's update in two parts: the boundary layer on the caller's thread (the
// exchange that follows needs it whole, so the caller would wait for it anyway), the interior on
// a HostQueue's thread, which runs beside the exchange as the second GPU stream would.
#include <chrono>
#include <string>

#include "box_sweep.hpp"
#include "gpu_jacobi.hpp"
#include "haloflag/notify/host_queue.hpp"
#include "overlap_sweep.hpp"

namespace jacobi3d {

namespace {

namespace hk = haloflag::kernels;

template <class Real>
class HostOverlapSweep final : public OverlapSweep<Real> {
 public:
  void enqueue_boundary(StencilKind stencil, const SweepFields<Real>& fields,
                        const BoundaryLayer& boundary) override {
    interior_.synchronize();  // the step before is done with both buffers
    sweep_boxes(stencil, fields, boundary.boxes, boundary.count, 0, 1);
  }
  void enqueue_interior(StencilKind stencil, const SweepFields<Real>& fields,
                        const hk::Box& interior) override {
    interior_.enqueue([stencil, fields, interior] { sweep_box(stencil, fields, interior, 0, 1); });
  }
  void wait_boundary() override {}
  void wait_interior() override { interior_.synchronize(); }
  double time_updates(StencilKind stencil, const std::array<SweepFields<Real>, 2>& steps,
                      int first_in, const SweepRegions& regions, int iterations) override {
    interior_.synchronize();
    const auto begin = std::chrono::steady_clock::now();
    for (int i = 0; i < iterations; ++i) {
      const SweepFields<Real>& fields = steps[(first_in + i) & 1];
      enqueue_boundary(stencil, fields, regions.boundary);
      enqueue_interior(stencil, fields, regions.interior);
    }
    interior_.synchronize();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  }
  std::string describe(const SweepRegions&) const override {
    return "update: boundary layer on the calling host thread, interior on a host thread of its "
           "own beside the exchange";
  }

 private:
  haloflag::notify::HostQueue interior_{"jacobi3d interior queue"};
};

}  // namespace

template <class Real>
std::unique_ptr<OverlapSweep<Real>> make_overlap_sweep(haloflag::notify::Backend backend,
                                                       int gpu_threads) {
  if (backend == haloflag::notify::Backend::host) {
    return std::make_unique<HostOverlapSweep<Real>>();
  }
  return GpuSide<Real>::overlap_sweep(gpu_threads);
}

template std::unique_ptr<OverlapSweep<float>> make_overlap_sweep<float>(
    haloflag::notify::Backend, int);
template std::unique_ptr<OverlapSweep<double>> make_overlap_sweep<double>(
    haloflag::notify::Backend, int);

}  // namespace jacobi3d
