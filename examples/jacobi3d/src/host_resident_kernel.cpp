// The resident kernel on the host backend: the examples' team of std::threads (HostTeam), each
// member running resident_iterations() of the launch's form as one block of the grid.
#include "haloflag/examples/host_team.hpp"
#include "resident_iterations.hpp"
#include "resident_kernel.hpp"

namespace jacobi3d {

namespace {

template <class Real>
class HostResidentKernel final : public ResidentKernel<Real> {
 public:
  explicit HostResidentKernel(int threads) : team_(threads) {}

  void launch(const ResidentLaunch<Real>& launch) override {
    team_.launch([launch](const auto& block, const auto& grid, std::uint32_t index,
                          std::uint32_t blocks) {
      return launch.whole_exchange
                 ? resident_iterations<true>(block, grid, index, blocks, launch)
                 : resident_iterations<false>(block, grid, index, blocks, launch);
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

}  // namespace jacobi3d

