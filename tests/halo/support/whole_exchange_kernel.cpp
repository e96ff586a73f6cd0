#include "whole_exchange_kernel.hpp"

#include <array>
#include <atomic>
#include <barrier>
#include <stdexcept>
#include <thread>
#include <vector>

#include "haloflag/kernels/embedded_api.hpp"
#include "haloflag/kernels/embedded_exchange.hpp"
#include "haloflag/kernels/host_groups.hpp"

namespace haloflag::test {
namespace {

// The team's size: a few threads stand for the grid's blocks, each taking its share of pieces.
constexpr int kHostBlocks = 3;

class HostTeam final : public WholeExchangeKernel::Runner {
 public:
  HostTeam(const kernels::DevicePlan& plan, std::uint64_t first, std::uint32_t count)
      : barrier_(kHostBlocks) {
    for (int b = 0; b < kHostBlocks; ++b) {
      team_.emplace_back([this, plan, first, count, b] { run_block(plan, first, count, b); });
    }
  }
  ~HostTeam() override { join(); }

  bool wait() override {
    join();
    return completed_.load() == kHostBlocks;
  }

 private:
  void run_block(const kernels::DevicePlan& plan, std::uint64_t first, std::uint32_t count,
                 int b) {
    const kernels::HostThreadGroup block;
    const kernels::HostTeamGroup grid{&barrier_, &slots_, b, kHostBlocks};
    const auto index = static_cast<std::uint32_t>(b);
    for (std::uint32_t i = 0; i < count; ++i) {
      const std::uint64_t epoch = first + i;
      grid.sync();
      kernels::BlockStatus status =
          kernels::embedded_exchange_start(block, plan, index, kHostBlocks, epoch);
      if (status == kernels::BlockStatus::ok) {
        status = kernels::embedded_exchange_finish(block, plan, index, kHostBlocks, epoch);
      }
      if (kernels::embedded_failed(grid, plan)) return;
    }
    completed_.fetch_add(1);
  }

  void join() {
    for (std::thread& member : team_) {
      if (member.joinable()) member.join();
    }
  }

  std::barrier<> barrier_;
  std::array<int, 2> slots_{};
  std::atomic<int> completed_{0};
  std::vector<std::thread> team_;
};

}  // namespace

WholeExchangeKernel::WholeExchangeKernel(notify::Backend backend,
                                         const kernels::DevicePlan& plan, std::uint64_t first,
                                         std::uint32_t count) {
  if (backend == notify::Backend::host) {
    runner_ = std::make_unique<HostTeam>(plan, first, count);
    return;
  }
#if defined(HALOFLAG_HAVE_GPU)
  runner_ = detail::launch_gpu_whole_exchanges(plan, first, count);
#else
  throw std::runtime_error("the whole-exchange test kernel: no GPU backend built in");
#endif
}

WholeExchangeKernel::~WholeExchangeKernel() = default;

bool WholeExchangeKernel::wait() { return runner_->wait(); }

}  // namespace haloflag::test
