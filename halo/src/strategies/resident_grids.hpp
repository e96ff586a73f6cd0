// Internal: Strategy::resident's grids over the Exchange's life. Launched at set-up, they leave
// the GPU once no exchange has started within the window (haloflag/kernels/idle_exit.hpp), and
// the start of the next exchange, by the host or on the caller's stream, launches again each
// grid that left (docs/design.md, "Resident kernels that leave when idle").
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "exchange_resources.hpp"
#include "haloflag/kernels/idle_exit_plan.hpp"
#include "haloflag/kernels/kernel_runner.hpp"

namespace haloflag::halo::detail {

// The window as people read it: "2 ms", "500 us".
std::string describe_idle_window(std::chrono::nanoseconds window);

class ResidentGrids {
 public:
  // `message_blocks`: the pack and unpack grids run; `piece_grid`: the piece grid does.
  ResidentGrids(kernels::KernelRunner& runner, ExchangeResources& resources, bool message_blocks,
                bool piece_grid);

  // Set-up: every grid, generation 1, for the exchanges from 1 on.
  void launch();
  // Before the start of exchange `epoch` is stored (by the host, or enqueued on the caller's
  // stream): promises it to the watchers and launches again each grid that left. True when no
  // grid was launched again: the grids on the GPU take the start, and a stream may store their
  // relays itself.
  bool bring_back(std::uint64_t epoch);
  // How many times bring_back() launched the grids again.
  std::uint64_t relaunches() const;
  // For deadline errors while exchange `epoch` is pending: a grid launched again for it that
  // has not begun, and what holds it back; empty otherwise.
  std::string pending(std::uint64_t epoch) const;

 private:
  using Clock = std::chrono::steady_clock;

  struct Grid {
    std::vector<kernels::KernelOp> ops;  // empty: the grid does not run
    std::uint64_t generation = 0;
    std::uint64_t relaunched_for = 0;  // the exchange it was last launched again for
  };

  // What the watcher of `grid` says once the host has promised `epoch`: a watcher that said it
  // may leave this exchange answers within microseconds, and is waited for.
  std::uint64_t watcher_answer(kernels::ResidentGrid grid, std::uint64_t epoch) const;
  std::uint64_t watcher_word(kernels::ResidentGrid grid) const;

  kernels::KernelRunner& runner_;
  ExchangeResources& resources_;
  std::chrono::nanoseconds window_;
  std::array<Grid, kernels::kResidentGrids> grids_;
  mutable std::mutex mutex_;  // start() and start(stream) may come from different threads
  Clock::time_point last_promise_{};
  std::uint64_t relaunches_ = 0;
};

}  // namespace haloflag::halo::detail
