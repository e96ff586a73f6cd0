// The resident kernel on the host backend: a team of std::threads, each a one-thread "block"
// (HostThreadGroup) and a member of the team "grid" (HostTeamGroup, a std::barrier).
#include <array>
#include <barrier>
#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "haloflag/kernels/host_groups.hpp"
#include "resident_kernel.hpp"
#include "resident_steps.hpp"

namespace jacobi2d {

namespace {

namespace hk = haloflag::kernels;

template <class Real>
class HostResidentKernel final : public ResidentKernel<Real> {
 public:
  explicit HostResidentKernel(int threads) : threads_(threads) {
    if (threads < 1) {
      throw std::invalid_argument("--host-threads: the host team needs at least one thread, got " +
                                  std::to_string(threads));
    }
  }
  ~HostResidentKernel() override {
    for (auto& member : team_) {
      if (member.joinable()) member.join();
    }
  }

  void launch(const ResidentLaunch<Real>& launch) override {
    barrier_ = std::make_unique<std::barrier<>>(threads_);
    slots_ = {0, 0};
    completed_.assign(static_cast<std::size_t>(threads_), 0);
    begin_ = std::chrono::steady_clock::now();
    for (int member = 0; member < threads_; ++member) {
      team_.emplace_back([this, launch, member] {
        const hk::HostTeamGroup grid{barrier_.get(), &slots_, member, threads_};
        const auto index = static_cast<std::uint32_t>(member);
        const auto blocks = static_cast<std::uint32_t>(threads_);
        const bool completed =
            resident_steps(hk::HostThreadGroup{}, grid, index, blocks, launch, HostNormAdd{});
        completed_[static_cast<std::size_t>(member)] = completed ? 1 : 0;
      });
    }
  }

  ResidentOutcome wait() override {
    for (auto& member : team_) member.join();
    team_.clear();
    ResidentOutcome outcome;
    outcome.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - begin_).count();
    outcome.completed = true;
    for (const char done : completed_) outcome.completed = outcome.completed && done != 0;
    return outcome;
  }

  std::string describe() const override {
    return "host team: " + std::to_string(threads_) + " threads";
  }

 private:
  int threads_;
  std::unique_ptr<std::barrier<>> barrier_;
  std::array<int, 2> slots_{};
  std::vector<char> completed_;
  std::vector<std::thread> team_;
  std::chrono::steady_clock::time_point begin_;
};

}  // namespace

template <class Real>
std::unique_ptr<ResidentKernel<Real>> make_host_resident_kernel(int threads) {
  return std::make_unique<HostResidentKernel<Real>>(threads);
}

template std::unique_ptr<ResidentKernel<float>> make_host_resident_kernel<float>(int);
template std::unique_ptr<ResidentKernel<double>> make_host_resident_kernel<double>(int);

}  // namespace jacobi2d
