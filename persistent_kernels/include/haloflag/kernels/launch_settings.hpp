/// @file
/// Block sizes and grid sizes of the exchange kernels, and the host backend's team size.
#pragma once

namespace haloflag::kernels {

/// Launch shapes of the exchange kernels.
struct LaunchSettings {
  int fused_threads = 256;     ///< threads per block of the fused kernels (Comb uses 256)
  int message_threads = 1024;  ///< threads of the one block per message (stream kernels)
  int stacked_threads = 1024;  ///< threads per block of the cooperative stacked kernel
  int stacked_blocks = 0;      ///< 0: as many as can be resident at once
  /// stream_notify and resident on a GPU: blocks that unpack each long receive together (its
  /// own block and long_receive_blocks - 1 more). One block reads host memory only as fast as one
  /// multiprocessor issues loads, and the last long receive's unpack is the exchange's tail; 3
  /// was faster than 1 or level on two GPUs over both transports and on the one-GPU proxies. The
  /// host backend always uses one.
  int long_receive_blocks = 3;
  /// stream_notify and resident on a GPU: blocks that pack each long send together (its own block
  /// and long_send_blocks - 1 helpers; with long sends in turn, all of them pack every long send,
  /// one after another). One block per message is enough when PCIe bounds it; one block's
  /// scattered accesses bound a copy into a peer's device memory. The host backend uses one.
  int long_send_blocks = 1;
  /// The node transport's grid: threads per block, blocks (0: one per piece, as many as fit
  /// beside the exchange's other kernels; a resident grid, half as many, so that the caller's
  /// kernels keep room between exchanges; a count set here may take the whole room, for callers
  /// that run nothing else on the GPU meanwhile), and the bytes of a piece, its unit of work.
  /// Pieces of a few KiB spread a face over many multiprocessors, and a block's threads move a piece in
  /// one or two rounds of loads.
  int node_threads = 256;
  int node_blocks = 0;  ///< node grid blocks (0: one per piece, as many as fit)
  int node_piece_bytes = 4096;  ///< bytes of a node piece
  int host_threads = 2;        ///< host backend: threads per lane, and the stacked grid's blocks
};

}  // namespace haloflag::kernels
