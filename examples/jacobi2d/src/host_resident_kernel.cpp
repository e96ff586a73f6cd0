// The resident kernel on the host backend: the examples' team of std::threads (HostTeam), each
// member running resident_steps() as one block of the grid.
#include "haloflag/examples/host_team.hpp"
#include "resident_kernel.hpp"
#include "resident_steps.hpp"

namespace jacobi2d {

namespace {

template <class Real>
class HostResidentKernel final : public ResidentKernel<Real> {
 public:
  explicit HostResidentKernel(int threads) : team_(threads, "--host-threads") {}

  void launch(const ResidentLaunch<Real>& launch) override {
    team_.launch([launch](const auto& block, const auto& grid, std::uint32_t index,
                          std::uint32_t blocks) {
      return resident_steps(block, grid, index, blocks, launch, HostNormAdd{});
    });
  }

  ResidentOutcome wait() override {
    const auto outcome = team_.wait();
    return {outcome.seconds, outcome.completed};
  }

  std::string describe() const override { return team_.describe(); }

 private:
  haloflag::examples::HostTeam team_;
};

}  // namespace

template <class Real>
std::unique_ptr<ResidentKernel<Real>> make_host_resident_kernel(int threads) {
  return std::make_unique<HostResidentKernel<Real>>(threads);
}

template std::unique_ptr<ResidentKernel<float>> make_host_resident_kernel<float>(int);
template std::unique_ptr<ResidentKernel<double>> make_host_resident_kernel<double>(int);

}  // namespace jacobi2d
