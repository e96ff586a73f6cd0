/// @file
/// The terms of the per-strategy prediction (docs/model.md, "Prediction per strategy"): what a
/// launch, a flag and the bulk strategies' fused kernels cost on one machine, and each strategy's
/// fixed cost per exchange. Units are SI: seconds, bytes per second.
#pragma once

#include <map>
#include <optional>
#include <string>

#include "haloflag/halo/strategy.hpp"
#include "haloflag/model/link_params.hpp"

namespace haloflag::model {

/// Launch to synchronisation of a fused kernel over a whole halo of `bytes`:
/// latency + bytes / bandwidth, measured with one rank on the GPU.
struct FusedKernelTime {
  double latency = 0.0;    ///< s
  double bandwidth = 0.0;  ///< B/s
  /// Equal in every field.
  bool operator==(const FusedKernelTime&) const = default;
};

/// Where the message buffer lives decides what the kernel's bytes cross: pinned host memory is
/// the MPI path's (every byte over PCIe), device memory the node transport's.
struct FusedKernelTimes {
  FusedKernelTime pack_pinned;  ///< pack into pinned host memory
  FusedKernelTime unpack_pinned;  ///< unpack from pinned host memory
  FusedKernelTime pack_device;  ///< pack into device memory
  FusedKernelTime unpack_device;  ///< unpack from device memory
  /// Equal in every field.
  bool operator==(const FusedKernelTimes&) const = default;
};

/// The part of one exchange that does not grow with its bytes (launches, synchronisations, flag
/// crossings, the host's progress loop, the barrier's skew), per transport the messages took.
struct FixedCost {
  double mpi = -1.0;   ///< s; < 0: not measured
  double node = -1.0;  ///< s; < 0: not measured
  /// Equal in every field.
  bool operator==(const FixedCost&) const = default;
};

/// The flag strategies the model predicts (embedded's kernel is the caller's), whose node
/// messages go through the node grid: the keys of ScheduleParams::node_grid.
inline bool has_node_grid(halo::Strategy strategy) {
  return halo::uses_flags(strategy) && strategy != halo::Strategy::embedded;
}

/// The terms of the per-strategy prediction, as a parameter file holds them.
struct ScheduleParams {
  double launch_sync = 0.0;        ///< s, empty kernel launch + stream synchronisation
  double graph_launch_sync = 0.0;  ///< s, one-node graph launch + stream synchronisation
  double host_flag = 0.0;          ///< s, a flag store until the other side (host or GPU) sees it
  FusedKernelTimes fused;  ///< the bulk strategies' fused kernels
  /// MPI within a node: one thread per rank copies every byte the rank sends and receives,
  /// alpha + beta * bytes (haloflag_calibrate_bulk_exchange). Without it the postal sets of the
  /// message classes are added up instead.
  std::optional<PostalParams> mpi_copy;
  /// Per strategy name (halo::to_string(Strategy)); strategies without a measured fixed cost get
  /// one composed from the launch and flag terms.
  std::map<std::string, FixedCost> fixed;
  /// Per flag strategy name: the bandwidth (B/s) at which its node grid moves the bytes of the
  /// rank's busier direction (sent or received over node), beyond the fixed cost, which holds the
  /// start, the first pieces and the done (haloflag_calibrate_merge --node-grid-probe).
  std::map<std::string, double> node_grid;
  /// Equal in every field.
  bool operator==(const ScheduleParams&) const = default;
};

}  // namespace haloflag::model
