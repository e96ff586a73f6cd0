// Whether the ranks of a run share a GPU, and whether NVIDIA MPS lets their kernels run side by
// side. Without MPS the GPU time-slices between processes, and a persistent kernel that waits
// for its peer's kernel waits a whole slice for every step: the flag strategies then measure
// the scheduler, not the exchange, so halo_bench leaves them out and says why.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "haloflag/halo/gpu_binding.hpp"
#include "haloflag/halo/strategy.hpp"

namespace haloflag::bench {

struct GpuSharing {
  bool gpu = false;       // false on the host backend: no GPU to share
  int ranks_per_gpu = 1;  // the most ranks of one node bound to one GPU
  bool mps = false;       // an MPS control daemon is there for this process
  // How MPS came to be, or why it is not there (HALOFLAG_MPS, set by scripts/run.sh).
  std::string mps_note;

  bool shared() const { return ranks_per_gpu > 1; }
  // Whether the kernels of ranks sharing a GPU can all run at once.
  bool kernels_side_by_side() const { return !shared() || mps; }
  // The heading's line, e.g. "2 ranks per GPU, under MPS (started by scripts/run.sh ...)".
  std::string describe() const;
};

// Collective over comm. `binding` is null on the host backend (no GPU to share).
GpuSharing detect_gpu_sharing(MPI_Comm comm, const halo::GpuBinding* binding);

// The strategies of `asked` whose kernels wait on their peers' kernels (halo::uses_flags), which
// need the kernels side by side.
std::vector<halo::Strategy> needing_side_by_side(std::span<const halo::Strategy> asked);

}  // namespace haloflag::bench
