#include "haloflag/examples/host_team.hpp"

#include <cstddef>
#include <stdexcept>

namespace haloflag::examples {

namespace hk = haloflag::kernels;

HostTeam::HostTeam(int threads, std::string_view option) : threads_(threads) {
  if (threads < 1) {
    const std::string prefix = option.empty() ? std::string() : std::string(option) + ": ";
    throw std::invalid_argument(prefix + "the host team needs at least one thread, got " +
                                std::to_string(threads));
  }
}

HostTeam::~HostTeam() {
  for (auto& member : team_) {
    if (member.joinable()) member.join();
  }
}

void HostTeam::launch(const Body& body) {
  barrier_ = std::make_unique<std::barrier<>>(threads_);
  slots_ = {0, 0};
  completed_.assign(static_cast<std::size_t>(threads_), 0);
  begin_ = std::chrono::steady_clock::now();
  for (int member = 0; member < threads_; ++member) {
    // Each member holds its own copy of `body` (and what it captured), as a GPU block holds its
    // own copy of the kernel's arguments.
    team_.emplace_back([this, body, member] {
      const hk::HostTeamGroup grid{barrier_.get(), &slots_, member, threads_};
      const auto index = static_cast<std::uint32_t>(member);
      const auto blocks = static_cast<std::uint32_t>(threads_);
      const bool completed = body(hk::HostThreadGroup{}, grid, index, blocks);
      completed_[static_cast<std::size_t>(member)] = completed ? 1 : 0;
    });
  }
}

HostTeam::Outcome HostTeam::wait() {
  for (auto& member : team_) member.join();
  team_.clear();
  Outcome outcome;
  outcome.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - begin_).count();
  outcome.completed = true;
  for (const char done : completed_) outcome.completed = outcome.completed && done != 0;
  return outcome;
}

std::string HostTeam::describe() const {
  return "host team: " + std::to_string(threads_) + " threads";
}

}  // namespace haloflag::examples
