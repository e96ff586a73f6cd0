/// @file
/// The host backend's stand-in for a GPU stream: an in-order queue of work run by one thread of
/// its own. Work enqueued behind other work starts only once that work has finished, as on a
/// stream, so code written against streams can be tested without a GPU.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace haloflag::notify {

/// A thread that runs queued work in order: the host backend's stand-in for a GPU stream.
class HostQueue {
 public:
  /// Starts the queue's thread; `name` appears in error messages.
  explicit HostQueue(std::string name = "host queue");
  ~HostQueue();  ///< runs what is still queued, then ends its thread
  HostQueue(const HostQueue&) = delete;
  HostQueue& operator=(const HostQueue&) = delete;

  /// Runs `work` after everything enqueued before it. Work that throws is the queue's fault:
  /// what comes after it is skipped, and synchronize() throws NotifyError naming the queue.
  void enqueue(std::function<void()> work);
  /// Blocks until everything enqueued so far has run; throws after a fault.
  void synchronize();

 private:
  void run();
  void throw_if_failed() const;  ///< with mutex_ held

  std::string name_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::function<void()>> work_;
  bool running_ = false;
  bool stopping_ = false;
  std::string failure_;
  std::thread thread_;
};

}  // namespace haloflag::notify
