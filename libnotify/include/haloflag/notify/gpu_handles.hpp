/// @file
/// Owning handles of a GPU stream and event, for GPU sources (*.cu) that time or order their own
/// kernels. Include only where gpu_runtime.hpp may be included.
#pragma once

#include "haloflag/notify/gpu_runtime.hpp"

namespace haloflag::notify {

/// A non-blocking stream: not ordered after the legacy stream, so a resident kernel elsewhere
/// never holds it up. Its work is waited for before it is destroyed.
class GpuStream {
 public:
  GpuStream() { HF_GPU_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking)); }
  ~GpuStream() {
    (void)cudaStreamSynchronize(stream_);
    (void)cudaStreamDestroy(stream_);
  }
  GpuStream(const GpuStream&) = delete;
  GpuStream& operator=(const GpuStream&) = delete;
  /// The stream handle.
  cudaStream_t get() const { return stream_; }

 private:
  cudaStream_t stream_ = nullptr;
};

/// An owned GPU event.
class GpuEvent {
 public:
  GpuEvent() { HF_GPU_CHECK(cudaEventCreate(&event_)); }
  ~GpuEvent() { (void)cudaEventDestroy(event_); }
  GpuEvent(const GpuEvent&) = delete;
  GpuEvent& operator=(const GpuEvent&) = delete;
  /// The event handle.
  cudaEvent_t get() const { return event_; }

 private:
  cudaEvent_t event_ = nullptr;
};

}  // namespace haloflag::notify
