/// @file
/// Where a caller orders its work: a CUDA or HIP stream (cudaStream_t, hipStream_t) on the GPU
/// backends, or a HostQueue on the host backend. A plain handle, passed by value; the stream or
/// queue must outlive what is enqueued on it.
///
/// A GPU stream is wrapped explicitly, `notify::WorkStream(stream)`: cudaStream_t and hipStream_t
/// are plain pointers, and an implicit conversion from any pointer let a call such as
/// `exchange.start(&fields)` compile as a stream-ordered start (docs/api_changes.md, "Streams").
#pragma once

#include <cstddef>

#include "haloflag/notify/host_queue.hpp"

namespace haloflag::notify {

/// Where asynchronous work goes: a HostQueue or a GPU stream.
class WorkStream {
 public:
  /// Work goes to `queue`. Implicit: a HostQueue is nothing but a queue, so no other argument
  /// can be mistaken for one.
  WorkStream(HostQueue& queue) : queue_(&queue) {}  // NOLINT(google-explicit-constructor)
  /// Work goes to the GPU stream `gpu_stream` (a cudaStream_t or hipStream_t, both pointers to
  /// an opaque struct). Explicit, because any other pointer would convert as well.
  template <class Opaque>
  explicit WorkStream(Opaque* gpu_stream) : gpu_stream_(static_cast<void*>(gpu_stream)) {}
  /// The GPU's default stream (0 or nullptr). Implicit: a null pointer constant names no object,
  /// so it cannot stand for fields or anything else a call might take.
  WorkStream(std::nullptr_t) {}  // NOLINT(google-explicit-constructor)

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
