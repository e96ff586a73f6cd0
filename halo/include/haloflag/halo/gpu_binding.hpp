/// @file
/// Which GPU each rank uses: by default its rank among the ranks of its node
/// (MPI_Comm_split_type shared), modulo the GPUs it can see.
#pragma once

#include <mpi.h>

#include <string>

#include "haloflag/notify/gpu_device.hpp"

namespace haloflag::halo {

/// Which GPU a rank uses, and how the node's ranks share GPUs.
struct GpuBinding {
  int world_rank = 0;  ///< rank in MPI_COMM_WORLD
  int local_rank = 0;   ///< rank among the ranks on this node
  int local_ranks = 1;  ///< ranks on this node
  int visible_gpus = 0;  ///< GPUs this process sees
  notify::GpuDeviceInfo device;  ///< the GPU bound
  /// Ranks of this node bound to the same GPU, this one included. Above 1, their persistent
  /// kernels run side by side only under NVIDIA MPS.
  int sharers = 1;
  std::string host;     ///< MPI processor name

  /// "rank 1 (local 1 of 2) on node-a -> GPU 1 of 2: NVIDIA H200 [0000:2a:00.0]"
  std::string describe() const;
};

/// Selects the GPU for this rank and makes it current: `requested` when >= 0, otherwise
/// local_rank % visible GPUs. Collective over `comm`. Throws notify::NotifyError when no GPU is
/// visible or `requested` is out of range.
GpuBinding bind_gpu(MPI_Comm comm, int requested = -1);

}  // namespace haloflag::halo
