/// @file
/// Where a caller orders its work: a CUDA or HIP stream (cudaStream_t, hipStream_t) on the GPU
/// backends, or a HostQueue on the host backend. A plain handle, passed by value; the stream or
/// queue must outlive what is enqueued on it.
#pragma once

#include <cstddef>

#include "haloflag/notify/host_queue.hpp"

namespace haloflag::notify {

/// Where asynchronous work goes: a HostQueue or a GPU stream.
class WorkStream {
 public:
  /// Work goes to `queue`.
  WorkStream(HostQueue& queue) : queue_(&queue) {}  // NOLINT: converts like a stream handle
  /// cudaStream_t and hipStream_t are pointers to an opaque struct.
  template <class Opaque>
  WorkStream(Opaque* gpu_stream) : gpu_stream_(static_cast<void*>(gpu_stream)) {}  // NOLINT
  /// The GPU's default stream (0 or nullptr).
  WorkStream(std::nullptr_t) {}  // NOLINT

  /// Whether this is a HostQueue.
  bool is_host_queue() const { return queue_ != nullptr; }
  /// The HostQueue, or nullptr.
  HostQueue* host_queue() const { return queue_; }
  /// The GPU stream handle, or nullptr.
  void* gpu_stream() const { return gpu_stream_; }

 private:
  HostQueue* queue_ = nullptr;
  void* gpu_stream_ = nullptr;
};

}  // namespace haloflag::notify
