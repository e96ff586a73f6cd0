/// @file
/// Launches the exchange kernels of one rank on its backend: CUDA or HIP streams on a GPU, or
/// lanes of CPU threads that run the very same block programs (block_programs.hpp) on the host
/// backend. One runner per Exchange; it owns its streams (or threads) and graphs.
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>

#include "haloflag/error.hpp"
#include "haloflag/kernels/detail/exchange_plan.hpp"
#include "haloflag/kernels/kernel_op.hpp"
#include "haloflag/kernels/launch_settings.hpp"
#include "haloflag/notify/backend.hpp"

namespace haloflag::kernels {

/// A launch whose blocks must all be resident at once (persistent or cooperative) but cannot be.
class CoResidencyError : public Error {
 public:
  /// A co-residency error with message `what`.
  explicit CoResidencyError(const std::string& what) : Error(ErrorKind::co_residency, what) {}
};

/// A kernel failed, or launch arguments were invalid.
class KernelError : public Error {
 public:
  /// A kernel error with message `what`.
  explicit KernelError(const std::string& what) : Error(ErrorKind::gpu, what) {}
};

/// Launches the exchange kernels of one backend.
class KernelRunner {
 public:
  virtual ~KernelRunner() = default;

  /// Starts `op` for `epoch` on its lane, after the lane's earlier work; returns at once.
  /// Flag-driven persistent ops (notify_*, stacked, resident_*) are checked for co-residency and
  /// refused with CoResidencyError when their blocks cannot all run at once.
  virtual void launch(KernelOp op, std::uint64_t epoch) = 0;
  /// Starts resident op `op` (resident_pack, resident_unpack, resident_piece_grid) for the
  /// exchanges from `first_epoch` on, as generation `generation` of its grid (idle_exit.hpp): 1
  /// for the first launch, one more each time the grid comes back after leaving idle.
  /// launch(op, epoch) of a resident op is generation 1.
  virtual void launch_resident(KernelOp op, std::uint64_t first_epoch,
                               std::uint64_t generation) = 0;
  /// The same work as launch(op, 0), recorded once as a graph and replayed (comb_graph). Only for
  /// the non-flag ops. The host backend has no graphs and runs the op directly.
  virtual void launch_graph(KernelOp op) = 0;
  /// True when everything launched on the lane has finished. Throws KernelError on a fault.
  virtual bool lane_idle(Lane lane) = 0;
  /// Blocks until the lane is idle. Throws KernelError on a fault.
  virtual void synchronize(Lane lane) = 0;
  /// Grid and block size of `op`, for reports: e.g. "26 blocks x 1024 threads".
  virtual std::string launch_shape(KernelOp op) const = 0;
  /// Throws CoResidencyError when the blocks of `op` (with its partner on the other lane for
  /// notify_* and resident_*) cannot all be resident at once; a no-op for the other ops.
  virtual void check_co_residency(KernelOp op) = 0;
  /// The lane's cudaStream_t or hipStream_t, for work a strategy puts between its kernels in
  /// stream order (the nccl strategy's transfers); null on the host backend, whose lanes are
  /// threads.
  virtual void* gpu_stream(Lane lane) const = 0;
};

// gpu_sharers: the processes whose exchange kernels share this GPU (ranks of one node bound to
// one GPU, under MPS). Their persistent and cooperative grids must all be resident together,
// so each may take only its share of the GPU: co-residency checks and the default stacked grid
// divide the GPU's capacity by this.

/// The blocks of settings.message_threads threads that one rank's stream kernels (the pack and
/// unpack grids of stream_notify, or of resident, together) can keep resident at once on the
/// current GPU, its share of gpu_sharers; unbounded on the host backend. Throws KernelError
/// where the backend is not compiled in.
std::int64_t message_block_capacity(notify::Backend backend, bool resident,
                                    const LaunchSettings& settings, int gpu_sharers = 1);

/// `plan` must stay valid (its memory alive) for the runner's lifetime.
std::unique_ptr<KernelRunner> make_kernel_runner(notify::Backend backend, const ExchangePlan& plan,
                                                 const LaunchSettings& settings,
                                                 int gpu_sharers = 1);

}  // namespace haloflag::kernels
