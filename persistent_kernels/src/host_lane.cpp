#include "host_lane.hpp"

#include <exception>
#include <utility>

#include "haloflag/kernels/kernel_runner.hpp"

namespace haloflag::kernels::detail {

HostLane::HostLane(std::string name, int threads) : name_(std::move(name)), thread_count_(threads) {
  if (threads < 1) throw KernelError(name_ + ": a host lane needs at least one thread");
  workers_.reserve(static_cast<std::size_t>(threads));
  for (int t = 0; t < threads; ++t) workers_.emplace_back([this, t] { work(t); });
}

HostLane::~HostLane() {
  {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return jobs_.empty(); });
    stopping_ = true;
  }
  changed_.notify_all();
  for (std::thread& worker : workers_) worker.join();
}

void HostLane::submit(Job job) {
  {
    std::lock_guard lock(mutex_);
    jobs_.push_back(std::move(job));
  }
  changed_.notify_all();
}

bool HostLane::idle() {
  std::lock_guard lock(mutex_);
  throw_if_failed();
  return jobs_.empty();
}

void HostLane::synchronize() {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return jobs_.empty(); });
  throw_if_failed();
}

void HostLane::throw_if_failed() {
  if (!failure_.empty()) throw KernelError(name_ + ": " + failure_);
}

void HostLane::work(int thread) {
  const int threads = thread_count_;
  std::uint64_t next_id = 0;  // the id of the next job this thread runs
  for (;;) {
    Job job;
    {
      std::unique_lock lock(mutex_);
      changed_.wait(lock, [&] { return stopping_ || (!jobs_.empty() && front_id_ == next_id); });
      if (stopping_ && (jobs_.empty() || front_id_ != next_id)) return;
      job = jobs_.front();
    }
    try {
      job(thread, threads);
    } catch (const std::exception& error) {
      std::lock_guard lock(mutex_);
      if (failure_.empty()) failure_ = error.what();
    }
    ++next_id;
    {
      std::lock_guard lock(mutex_);
      if (++finished_front_ == threads) {
        jobs_.pop_front();
        ++front_id_;
        finished_front_ = 0;
      }
    }
    changed_.notify_all();
  }
}

}  // namespace haloflag::kernels::detail
