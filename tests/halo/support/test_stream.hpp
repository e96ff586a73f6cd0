// Test support: the caller's stream of a test that starts exchanges with start(stream). A
// HostQueue on the host backend, a non-blocking GPU stream on the others. Host work goes on the
// queue (ordered with the exchange's stream operations) on the host backend, and runs at once on a
// GPU backend, whose stream runs only the exchange's operations in these tests.
#pragma once

#include <memory>

#include "haloflag/notify/backend.hpp"
#include "haloflag/notify/host_queue.hpp"
#include "haloflag/notify/work_stream.hpp"

#if defined(HALOFLAG_HAVE_GPU)
#include "haloflag/notify/gpu_handles.hpp"
#endif

namespace haloflag::test {

class TestStream {
 public:
  explicit TestStream(notify::Backend backend) : backend_(backend) {
#if defined(HALOFLAG_HAVE_GPU)
    if (backend != notify::Backend::host) gpu_ = std::make_unique<notify::GpuStream>();
#endif
  }

  notify::WorkStream handle() {
#if defined(HALOFLAG_HAVE_GPU)
    if (gpu_) return notify::WorkStream(gpu_->get());
#endif
    return queue_;
  }

  template <class Work>
  void enqueue_host_work(Work work) {
    if (backend_ == notify::Backend::host) {
      queue_.enqueue(work);
    } else {
      synchronize();
      work();
    }
  }

  void synchronize() {
#if defined(HALOFLAG_HAVE_GPU)
    if (gpu_) {
      HF_GPU_CHECK(cudaStreamSynchronize(gpu_->get()));
      return;
    }
#endif
    queue_.synchronize();
  }

 private:
  notify::Backend backend_;
  notify::HostQueue queue_{"test stream"};
#if defined(HALOFLAG_HAVE_GPU)
  std::unique_ptr<notify::GpuStream> gpu_;
#endif
};

}  // namespace haloflag::test
