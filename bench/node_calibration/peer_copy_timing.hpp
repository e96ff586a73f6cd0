// The link between two GPUs as a plain program sees it: cudaMemcpyPeerAsync (hipMemcpyPeerAsync)
// in both directions at once, as the two ranks of a halo exchange send to each other. The
// two-GPU headline (scripts/tables/headline_table.py) sets halo_bench's times beside the time of the same
// bytes at this rate.
#pragma once

#include <cstdint>
#include <vector>

namespace haloflag::bench {

struct PeerCopyPlan {
  int gpu_a = 0;
  int gpu_b = 1;
  std::vector<std::int64_t> sizes;  // bytes per direction
  int iterations = 300;             // timed samples per size
  int warmup = 20;                  // untimed samples per size first
};

struct PeerCopySamples {
  std::int64_t bytes = 0;               // per direction
  std::vector<double> wall_seconds;     // host clock: both copies issued, both streams synchronised
  std::vector<double> device_seconds;   // GPU events: the longer of the two copies
};

// Per size (in plan order): each sample issues A -> B on A's stream and B -> A on B's stream, then
// waits for both streams. Peer access is enabled both ways first, so the copies take the direct
// link; throws std::invalid_argument when either GPU cannot reach the other's memory or both are
// the same GPU, and std::runtime_error naming the size and offset of a byte that arrives wrong
// (each size is checked in both directions before it is timed).
std::vector<PeerCopySamples> time_peer_copies(const PeerCopyPlan& plan);

}  // namespace haloflag::bench
