// Strategy::resident's grids: launched at set-up, brought back after leaving idle
// (resident_grids.hpp).
#include "strategies/resident_grids.hpp"

#include <atomic>
#include <thread>

#include "haloflag/halo/errors.hpp"
#include "haloflag/notify/system_atomics.hpp"

namespace haloflag::halo::detail {
namespace {

using kernels::KernelOp;
using kernels::ResidentGrid;
using kernels::WatcherSays;

// A watcher says it may leave no sooner than a window after the last promise (it waits for the
// next exchange only once it has seen that one start), so a promise within half a window of the
// last needs no look at the watchers: any later look of theirs finds it. Below this window the
// margin is too thin to lean on, and every promise looks.
constexpr auto kLeastWindowWithoutLook = std::chrono::microseconds(100);

const char* grid_name(ResidentGrid grid) {
  return grid == ResidentGrid::messages ? "pack and unpack grids" : "piece grid";
}

}  // namespace

std::string describe_idle_window(std::chrono::nanoseconds window) {
  const auto ns = window.count();
  if (ns % 1'000'000 == 0) return std::to_string(ns / 1'000'000) + " ms";
  if (ns % 1'000 == 0) return std::to_string(ns / 1'000) + " us";
  return std::to_string(ns) + " ns";
}

ResidentGrids::ResidentGrids(kernels::KernelRunner& runner, ExchangeResources& resources,
                             bool message_blocks, bool piece_grid)
    : runner_(runner),
      resources_(resources),
      window_(static_cast<std::chrono::nanoseconds::rep>(resources.plan.idle.window_ns)) {
  if (message_blocks) {
    grids_[static_cast<int>(ResidentGrid::messages)].ops = {KernelOp::resident_pack,
                                                           KernelOp::resident_unpack};
  }
  if (piece_grid) {
    grids_[static_cast<int>(ResidentGrid::pieces)].ops = {KernelOp::resident_piece_grid};
  }
}

void ResidentGrids::launch() {
  const std::lock_guard<std::mutex> lock(mutex_);
  last_promise_ = Clock::now();
  for (Grid& grid : grids_) {
    grid.generation = 1;
    for (KernelOp op : grid.ops) runner_.launch_resident(op, 1, grid.generation);
  }
}

bool ResidentGrids::bring_back(std::uint64_t epoch) {
  const std::lock_guard<std::mutex> lock(mutex_);
  const Clock::time_point now = Clock::now();
  resources_.idle_promised.signal(0, epoch);
  if (window_.count() == 0) return true;
  const bool no_watcher_looked_yet =
      window_ >= kLeastWindowWithoutLook && now - last_promise_ < window_ / 2;
  last_promise_ = now;
  if (no_watcher_looked_yet) return true;
  // The promise before the watchers' words, for every observer (idle_exit.hpp).
  std::atomic_thread_fence(std::memory_order_seq_cst);
  bool relaunched = false;
  for (std::uint32_t g = 0; g < kernels::kResidentGrids; ++g) {
    Grid& grid = grids_[g];
    if (grid.ops.empty()) continue;
    const std::uint64_t word = watcher_answer(static_cast<ResidentGrid>(g), epoch);
    if (kernels::watcher_says(word) != WatcherSays::left || kernels::watcher_epoch(word) != epoch) {
      continue;
    }
    ++grid.generation;
    grid.relaunched_for = epoch;
    for (KernelOp op : grid.ops) runner_.launch_resident(op, epoch, grid.generation);
    relaunched = true;
  }
  if (relaunched) ++relaunches_;
  return !relaunched;
}

std::uint64_t ResidentGrids::relaunches() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  return relaunches_;
}

std::uint64_t ResidentGrids::watcher_word(ResidentGrid grid) const {
  return notify::load_acquire_system(
      resources_.idle_watchers.host_view().word(static_cast<std::uint32_t>(grid)));
}

std::uint64_t ResidentGrids::watcher_answer(ResidentGrid grid, std::uint64_t epoch) const {
  const Clock::time_point deadline = Clock::now() + resources_.control.timeout();
  for (;;) {
    const std::uint64_t word = watcher_word(grid);
    if (kernels::watcher_says(word) != WatcherSays::may_leave ||
        kernels::watcher_epoch(word) != epoch) {
      return word;
    }
    if (Clock::now() > deadline) {
      throw ExchangeError(ErrorKind::timeout,
                          "the watcher of the resident " + std::string(grid_name(grid)) +
                              " said it may leave the GPU before exchange " +
                              std::to_string(epoch) +
                              " and did not say whether it stays within the timeout");
    }
    std::this_thread::yield();
  }
}

std::string ResidentGrids::pending(std::uint64_t epoch) const {
  const std::lock_guard<std::mutex> lock(mutex_);
  std::string text;
  for (std::uint32_t g = 0; g < kernels::kResidentGrids; ++g) {
    if (epoch == 0 || grids_[g].relaunched_for != epoch ||
        kernels::watcher_says(watcher_word(static_cast<ResidentGrid>(g))) != WatcherSays::left) {
      continue;
    }
    text += "\n  the resident " + std::string(grid_name(static_cast<ResidentGrid>(g))) +
            " left the GPU after " + describe_idle_window(window_) +
            " without an exchange and were launched again for exchange " +
            std::to_string(epoch) +
            ", but have not begun: the GPU is held by other work. A device-wide wait "
            "(cudaDeviceSynchronize, a free such as cudaFree, empty_cache() or "
            "free_all_blocks(), a kernel's first lazy load) waits for kernels that never end, "
            "such as a persistent kernel of the program's own, and kernels of the program may "
            "fill the GPU";
  }
  return text;
}

}  // namespace haloflag::halo::detail
