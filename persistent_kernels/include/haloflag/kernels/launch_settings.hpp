// Block sizes and grid sizes of the exchange kernels, and the host backend's team size.
#pragma once

namespace haloflag::kernels {

struct LaunchSettings {
  int fused_threads = 256;     // threads per block of the fused kernels (Comb uses 256)
  int message_threads = 1024;  // threads of the one block per message (stream kernels)
  int stacked_threads = 1024;  // threads per block of the cooperative stacked kernel
  int stacked_blocks = 0;      // 0: as many as can be resident at once
  int host_threads = 2;        // host backend: threads per lane, and the stacked grid's blocks
};

}  // namespace haloflag::kernels
