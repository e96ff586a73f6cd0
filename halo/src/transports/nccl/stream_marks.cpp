#include "transports/nccl/stream_marks.hpp"

#include <string>

#include "haloflag/halo/errors.hpp"
#include "haloflag/halo/exchange_timeline.hpp"
#include "transports/nccl/nccl_api.hpp"

namespace haloflag::halo::detail {

namespace {

#if defined(HALOFLAG_HAVE_RCCL)
using GpuEvent = hipEvent_t;
using GpuStatus = hipError_t;
constexpr GpuStatus kGpuSuccess = hipSuccess;
GpuStatus create_event(GpuEvent* event) { return hipEventCreate(event); }
void destroy_event(GpuEvent event) { (void)hipEventDestroy(event); }
GpuStatus record_event(GpuEvent event, NcclStream stream) { return hipEventRecord(event, stream); }
GpuStatus elapsed_ms(float* ms, GpuEvent from, GpuEvent to) {
  return hipEventElapsedTime(ms, from, to);
}
const char* status_text(GpuStatus status) { return hipGetErrorString(status); }
#else
using GpuEvent = cudaEvent_t;
using GpuStatus = cudaError_t;
constexpr GpuStatus kGpuSuccess = cudaSuccess;
GpuStatus create_event(GpuEvent* event) { return cudaEventCreate(event); }
void destroy_event(GpuEvent event) { (void)cudaEventDestroy(event); }
GpuStatus record_event(GpuEvent event, NcclStream stream) {
  return cudaEventRecord(event, stream);
}
GpuStatus elapsed_ms(float* ms, GpuEvent from, GpuEvent to) {
  return cudaEventElapsedTime(ms, from, to);
}
const char* status_text(GpuStatus status) { return cudaGetErrorString(status); }
#endif

}  // namespace

StreamMarks::StreamMarks(int count, void* stream)
    : stream_(stream), recorded_(static_cast<std::size_t>(count), false) {
  for (int i = 0; i < count; ++i) {
    GpuEvent event = nullptr;
    const GpuStatus status = create_event(&event);
    if (status != kGpuSuccess) {
      for (void* made : events_) destroy_event(static_cast<GpuEvent>(made));
      throw ExchangeError(ErrorKind::gpu, std::string("the traced nccl exchange's stream events: ") +
                                              status_text(status));
    }
    events_.push_back(event);
  }
}

StreamMarks::~StreamMarks() {
  for (void* event : events_) destroy_event(static_cast<GpuEvent>(event));
}

void StreamMarks::clear() { recorded_.assign(recorded_.size(), false); }

void StreamMarks::record(int index) {
  const auto at = static_cast<std::size_t>(index);
  recorded_[at] = record_event(static_cast<GpuEvent>(events_[at]),
                               static_cast<NcclStream>(stream_)) == kGpuSuccess;
}

std::int64_t StreamMarks::elapsed_ns(int from, int to) const {
  const auto a = static_cast<std::size_t>(from);
  const auto b = static_cast<std::size_t>(to);
  if (!recorded_[a] || !recorded_[b]) return kNotRecorded;
  float ms = 0.0F;
  if (elapsed_ms(&ms, static_cast<GpuEvent>(events_[a]), static_cast<GpuEvent>(events_[b])) !=
      kGpuSuccess) {
    return kNotRecorded;
  }
  return static_cast<std::int64_t>(static_cast<double>(ms) * 1e6);
}

}  // namespace haloflag::halo::detail
