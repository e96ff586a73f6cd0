#include "haloflag/notify/host_queue.hpp"

#include <exception>
#include <utility>

#include "haloflag/notify/errors.hpp"

namespace haloflag::notify {

HostQueue::HostQueue(std::string name) : name_(std::move(name)), thread_([this] { run(); }) {}

HostQueue::~HostQueue() {
  {
    const std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  thread_.join();
}

void HostQueue::enqueue(std::function<void()> work) {
  {
    const std::lock_guard lock(mutex_);
    work_.push_back(std::move(work));
  }
  changed_.notify_all();
}

void HostQueue::synchronize() {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return work_.empty() && !running_; });
  throw_if_failed();
}

void HostQueue::throw_if_failed() const {
  if (!failure_.empty()) throw NotifyError(name_ + ": " + failure_);
}

void HostQueue::run() {
  for (;;) {
    std::function<void()> work;
    {
      std::unique_lock lock(mutex_);
      changed_.wait(lock, [&] { return stopping_ || !work_.empty(); });
      if (work_.empty()) return;  // stopping, and everything ran
      work = std::move(work_.front());
      work_.pop_front();
      running_ = true;
      // After a fault the rest is skipped, as a faulted stream runs nothing more.
      if (!failure_.empty()) work = nullptr;
    }
    if (work) {
      try {
        work();
      } catch (const std::exception& error) {
        const std::lock_guard lock(mutex_);
        failure_ = error.what();
      }
    }
    {
      const std::lock_guard lock(mutex_);
      running_ = false;
    }
    changed_.notify_all();
  }
}

}  // namespace haloflag::notify
