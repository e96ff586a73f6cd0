// Internal: GPU events recorded on one stream between the steps of a traced nccl exchange, and
// the GPU's time between them. Recording an event is host work between two steps, so only a
// traced Exchange makes them (ExchangeOptions::trace). CUDA's or HIP's events, as the NCCL
// (RCCL) build is; compiled only where configure found the library.
#pragma once

#include <cstdint>
#include <vector>

namespace haloflag::halo::detail {

class StreamMarks {
 public:
  // `count` marks on `stream`, a cudaStream_t or hipStream_t. Throws ExchangeError (kind gpu)
  // when the runtime cannot create the events.
  StreamMarks(int count, void* stream);
  ~StreamMarks();
  StreamMarks(const StreamMarks&) = delete;
  StreamMarks& operator=(const StreamMarks&) = delete;

  // Forgets the marks of the last exchange.
  void clear();
  // Records mark `index` on the stream, behind everything already on it.
  void record(int index);
  // GPU nanoseconds from mark `from` to mark `to`, once both have passed (the stream is idle);
  // kNotRecorded when either was not recorded this exchange or the runtime cannot tell.
  std::int64_t elapsed_ns(int from, int to) const;

 private:
  void* stream_;
  std::vector<void*> events_;  // cudaEvent_t or hipEvent_t
  std::vector<bool> recorded_;
};

}  // namespace haloflag::halo::detail
