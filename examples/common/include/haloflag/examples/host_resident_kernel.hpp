// The resident kernel of a stencil example on the host backend: the examples' team of
// std::threads (host_team.hpp), each member running the kernel's body as one block of the grid.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "haloflag/examples/host_team.hpp"
#include "haloflag/examples/resident_kernel.hpp"

namespace haloflag::examples {

namespace detail {

template <class Launch, class Body>
class HostResidentKernel final : public ResidentKernel<Launch> {
 public:
  HostResidentKernel(int threads, Body body, std::string_view option)
      : team_(threads, option), body_(body) {}

  void launch(const Launch& launch) override {
    team_.launch([launch, body = body_](const haloflag::kernels::HostThreadGroup& block,
                                        const haloflag::kernels::HostTeamGroup& grid,
                                        std::uint32_t index, std::uint32_t blocks) {
      return body(block, grid, index, blocks, launch);
    });
  }

  ResidentOutcome wait() override {
    const HostTeam::Outcome outcome = team_.wait();
    return {outcome.seconds, outcome.completed};
  }

  std::string describe() const override { return team_.describe(); }
  int blocks() const override { return team_.threads(); }

 private:
  HostTeam team_;
  Body body_;
};

}  // namespace detail

// A team of `threads` members, each running `body(block, grid, block_index, blocks, launch)` (the
// kernel's code, written once for a GPU grid) and returning whether every iteration completed.
// Throws std::invalid_argument when `threads` < 1, the message starting with `option` when given.
template <class Launch, class Body>
std::unique_ptr<ResidentKernel<Launch>> host_resident_kernel(int threads, Body body,
                                                             std::string_view option = {}) {
  return std::make_unique<detail::HostResidentKernel<Launch, Body>>(threads, body, option);
}

}  // namespace haloflag::examples
