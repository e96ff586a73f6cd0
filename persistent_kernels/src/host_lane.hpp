// The host backend's stream: a fixed team of CPU threads that runs submitted jobs in order. Every
// thread of the team takes part in every job (job(thread, threads)), and a job starts only
// after the previous one finished on all threads, as kernels on one stream do.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace haloflag::kernels::detail {

class HostLane {
 public:
  using Job = std::function<void(int thread, int threads)>;

  HostLane(std::string name, int threads);
  ~HostLane();  // waits for submitted jobs; the owner ends persistent ones first
  HostLane(const HostLane&) = delete;
  HostLane& operator=(const HostLane&) = delete;

  int threads() const { return thread_count_; }
  void submit(Job job);
  // Throw KernelError if a job threw.
  bool idle();
  void synchronize();

 private:
  void work(int thread);
  void throw_if_failed();  // with mutex_ held

  std::string name_;
  int thread_count_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<Job> jobs_;
  std::uint64_t front_id_ = 0;  // id of jobs_.front()
  int finished_front_ = 0;      // threads done with the front job
  bool stopping_ = false;
  std::string failure_;
  std::vector<std::thread> workers_;
};

}  // namespace haloflag::kernels::detail
