// The resident kernel of a stencil example on the host backend: a team of std::threads, each a
// one-thread "block" (HostThreadGroup) and a member of the team "grid" (HostTeamGroup, a
// std::barrier), so that the kernel's code written once for a GPU grid runs on CPU threads.
#pragma once

#include <array>
#include <barrier>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "haloflag/kernels/host_groups.hpp"

namespace haloflag::examples {

class HostTeam {
 public:
  // What each member runs: its block, the team's grid, its index and the team's size; it returns
  // whether every iteration completed. Called by every member at once.
  using Body = std::function<bool(const haloflag::kernels::HostThreadGroup& block,
                                  const haloflag::kernels::HostTeamGroup& grid,
                                  std::uint32_t block_index, std::uint32_t blocks)>;

  // How a run ended: its seconds on the steady clock, and whether every member completed.
  struct Outcome {
    double seconds = 0.0;
    bool completed = false;
  };

  // Throws std::invalid_argument when `threads` < 1; `option`, when given, starts the message
  // ("--host-threads: the host team needs ...").
  explicit HostTeam(int threads, std::string_view option = {});
  ~HostTeam();  // joins a team still running
  HostTeam(const HostTeam&) = delete;
  HostTeam& operator=(const HostTeam&) = delete;

  // Starts the team on `body` and returns at once.
  void launch(const Body& body);
  // Joins the team started by launch().
  Outcome wait();
  // "host team: 2 threads".
  std::string describe() const;
  int threads() const { return threads_; }

 private:
  int threads_;
  std::unique_ptr<std::barrier<>> barrier_;
  std::array<int, 2> slots_{};
  std::vector<char> completed_;
  std::vector<std::thread> team_;
  std::chrono::steady_clock::time_point begin_;
};

}  // namespace haloflag::examples
