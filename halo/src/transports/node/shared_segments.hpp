// Internal: host memory shared by the processes of one node. Each rank creates a segment
// (POSIX shared memory) and maps every other rank's; every rank reaches every segment with
// plain loads and stores. The node transport keeps the host backend's buffers and flags here,
// the GPU fallback's too, and the CPU-to-CPU mailbox of the bulk strategies.
//
// Not an MPI shared window: freeing one is collective, and a rank whose peer died or hangs
// could then neither free it nor leave. Here tear-down is local: the names are removed once
// every rank has mapped every segment, so the memory goes when its last mapping does, also
// when a process dies.
#pragma once

#include <mpi.h>

#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

namespace haloflag::halo::detail {

class SharedSegments {
 public:
  SharedSegments() = default;
  // Collective over `node_comm`. This rank's segment holds `bytes` (rounded up to whole pages,
  // at least one), zero-filled. Throws ExchangeError naming the rank whose segment could not be
  // created or mapped, or the step that passed `timeout`.
  SharedSegments(MPI_Comm node_comm, std::size_t bytes, std::chrono::nanoseconds timeout);
  ~SharedSegments();  // unmaps; never waits for anyone
  SharedSegments(const SharedSegments&) = delete;
  SharedSegments& operator=(const SharedSegments&) = delete;

  std::byte* segment(int node_rank) const { return mapped_[static_cast<std::size_t>(node_rank)]; }
  std::size_t bytes(int node_rank) const { return sizes_[static_cast<std::size_t>(node_rank)]; }

 private:
  std::vector<std::byte*> mapped_;
  std::vector<std::size_t> sizes_;
};

}  // namespace haloflag::halo::detail
