// Internal: a transport's CPU-side view of the piece grid (the kernels' piece_grid.hpp) under a
// flag strategy. The grid moves that transport's messages with no CPU step; one flag,
// pieces_done, tells the CPU that every piece of the epoch is done, and its first sighting marks
// the transport's messages in the timeline. Shared by the host halves whose messages the grid
// moves (node, self).
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "exchange_resources.hpp"
#include "timeline_recorder.hpp"

namespace haloflag::halo::detail {

class PieceGridWatch {
 public:
  PieceGridWatch(ExchangeResources& resources, TimelineRecorder& timeline)
      : resources_(resources), timeline_(timeline) {}
  // The transport's messages, by index, once its set-up knows them.
  void watch(std::vector<std::size_t> sends, std::vector<std::size_t> recvs) {
    sends_ = std::move(sends);
    recvs_ = std::move(recvs);
  }

  void start() { done_unseen_ = true; }
  // One look at pieces_done; true once it has shown `epoch`.
  bool progress(std::uint64_t epoch) {
    watched_ = true;
    if (done_unseen_ && resources_.pieces_done->test(0, epoch)) {
      done_unseen_ = false;
      for (const std::size_t m : sends_) timeline_.send_ready_seen(m);
      for (const std::size_t r : recvs_) timeline_.unpack_done_seen(r);
    }
    return !done_unseen_;
  }
  // Whether a flag strategy drives the grid (progress() was called).
  bool watched() const { return watched_; }
  // Whether it does, and the epoch is not seen done yet.
  bool waiting() const { return watched_ && done_unseen_; }
  std::uint64_t done_value() const { return resources_.pieces_done->value(0); }

  const std::vector<std::size_t>& sends() const { return sends_; }
  const std::vector<std::size_t>& recvs() const { return recvs_; }

 private:
  ExchangeResources& resources_;
  TimelineRecorder& timeline_;
  std::vector<std::size_t> sends_;
  std::vector<std::size_t> recvs_;
  bool done_unseen_ = false;
  bool watched_ = false;
};

}  // namespace haloflag::halo::detail
