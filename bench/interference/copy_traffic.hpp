// The "copies" scenario's background load: large host<->device copies, one pair after another
// on a thread of their own, for as long as a case runs. On a GPU, cudaMemcpyAsync between pinned
// host memory and device memory on two streams (one per direction); on the host backend, memcpy
// between two host buffers in place of the copy engines (not GPU results).
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <string>
#include <thread>

namespace haloflag::bench::interference {

class CopyTraffic {
 public:
  // `prepare_thread` runs first on the copy thread (e.g. making the GPU current there);
  // `copy_pair` copies once in each direction and returns when both copies are done.
  CopyTraffic(std::string description, std::size_t bytes, std::function<void()> prepare_thread,
              std::function<void()> copy_pair);
  ~CopyTraffic();
  CopyTraffic(const CopyTraffic&) = delete;
  CopyTraffic& operator=(const CopyTraffic&) = delete;

  const std::string& describe() const { return description_; }
  std::size_t bytes() const { return bytes_; }  // of each copy

  // Starts the copies and returns once the first pair has completed (the traffic is flowing).
  // Throws NotifyError when that takes longer than `deadline`, or the copy thread's error.
  void start(std::chrono::nanoseconds deadline);
  // Ends the copies after the pair in flight; returns how many pairs ran since start(). Throws
  // the copy thread's error, if it had one.
  std::uint64_t stop();

 private:
  void run();
  void join_and_rethrow();

  std::string description_;
  std::size_t bytes_ = 0;
  std::function<void()> prepare_thread_;
  std::function<void()> copy_pair_;
  std::thread thread_;
  std::atomic<bool> stop_requested_{false};
  std::atomic<std::uint64_t> pairs_done_{0};
  std::atomic<bool> failed_{false};
  std::exception_ptr error_;  // written by the copy thread before failed_ is set
};

std::unique_ptr<CopyTraffic> make_host_copy_traffic(std::size_t bytes);
// On GPU `index`. Throws NotifyError in a build without a GPU backend.
std::unique_ptr<CopyTraffic> make_gpu_copy_traffic(int index, std::size_t bytes);

}  // namespace haloflag::bench::interference
