// The copy engine's copies that the fused kernels' rates stand beside (copy_rates.hpp): within
// the bound GPU's memory and to its peer, the next visible GPU. gpu_copies.cu implements it in
// GPU builds; in host-only builds gpu_copies_none.cpp has no GPU to copy on and throws.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

namespace haloflag::bench {

class GpuCopies {
 public:
  // Source and destination buffers of `bytes` on the current GPU, and one on its peer when
  // another GPU is visible (with peer access where the two allow it).
  explicit GpuCopies(std::int64_t bytes);
  ~GpuCopies();
  GpuCopies(const GpuCopies&) = delete;
  GpuCopies& operator=(const GpuCopies&) = delete;

  bool has_peer() const;
  // "GPU 1 of 2, peer access on", or why there is no peer ("no peer GPU: one GPU visible").
  const std::string& peer() const;

  // One copy, enqueued and waited for on a stream of this GPU; seconds on the host's steady
  // clock, as the halo sets are timed.
  double device_copy_s();  // cudaMemcpyAsync, device to device
  double peer_copy_s();    // cudaMemcpyPeerAsync into the peer's buffer (has_peer() only)

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace haloflag::bench
