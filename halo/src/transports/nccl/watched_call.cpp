#include "transports/nccl/watched_call.hpp"

#include <future>
#include <thread>
#include <utility>

namespace haloflag::halo::detail {

bool returned_within(std::function<void()> call, std::chrono::nanoseconds timeout) {
  std::packaged_task<void()> task(std::move(call));
  std::future<void> done = task.get_future();
  // The task owns the call's state, so a thread still inside it when we give up touches
  // nothing of ours; a packaged_task's future does not wait for it when it goes.
  std::thread(std::move(task)).detach();
  if (done.wait_for(timeout) != std::future_status::ready) return false;
  done.get();
  return true;
}

}  // namespace haloflag::halo::detail
