// The host backend's lanes: a HostQueue each, one CPU thread sweeping a lane's rows.
#include <cstring>

#include "gpu_jacobi2d.hpp"
#include "norm_accumulator.hpp"
#include "row_sweeps.hpp"

namespace jacobi2d {

namespace {

template <class Real>
class HostRowSweeps final : public RowSweeps<Real> {
 public:
  void enqueue(Lane lane, const PlaneStep<Real>& step, const RowSet& rows,
               double* norm) override {
    queue(lane).enqueue([step, rows, norm] {
      const double sum = sweep_rows(step, rows, 0, 1, norm != nullptr);
      if (norm != nullptr) add_norm(norm, sum);
    });
  }
  void enqueue_publish(Lane lane, double* norm, const NormSlots& slots,
                       std::uint64_t check) override {
    queue(lane).enqueue([norm, slots, check] { publish_norm(slots, check, take_norm(norm)); });
  }
  void enqueue_copy(Lane lane, void* to, const void* from, std::size_t bytes) override {
    queue(lane).enqueue([to, from, bytes] { std::memcpy(to, from, bytes); });
  }
  haloflag::notify::WorkStream stream(Lane lane) override { return queue(lane); }
  void synchronize(Lane lane) override { queue(lane).synchronize(); }
  double take(double* norm) override { return take_norm(norm); }
  std::string describe() const override { return "update: 1 host thread per lane"; }

 private:
  haloflag::notify::HostQueue& queue(Lane lane) {
    return lane == Lane::boundary ? boundary_ : interior_;
  }
  haloflag::notify::HostQueue boundary_{"jacobi2d boundary lane"};
  haloflag::notify::HostQueue interior_{"jacobi2d interior lane"};
};

}  // namespace

template <class Real>
std::unique_ptr<RowSweeps<Real>> make_host_row_sweeps() {
  return std::make_unique<HostRowSweeps<Real>>();
}

template <class Real>
std::unique_ptr<RowSweeps<Real>> make_row_sweeps(haloflag::notify::Backend backend,
                                                 int gpu_threads) {
  if (backend == haloflag::notify::Backend::host) return make_host_row_sweeps<Real>();
  return GpuSide<Real>::row_sweeps(gpu_threads);
}

template std::unique_ptr<RowSweeps<float>> make_host_row_sweeps<float>();
template std::unique_ptr<RowSweeps<double>> make_host_row_sweeps<double>();
template std::unique_ptr<RowSweeps<float>> make_row_sweeps<float>(haloflag::notify::Backend, int);
template std::unique_ptr<RowSweeps<double>> make_row_sweeps<double>(haloflag::notify::Backend,
                                                                    int);

}  // namespace jacobi2d
