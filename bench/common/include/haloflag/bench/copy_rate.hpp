// The rate at which this rank's device copies memory, to compare a kernel's memory traffic with:
// a device-to-device copy of `bytes` between two fresh buffers on a GPU backend (the current
// GPU), std::memcpy on the host backend. Its figure counts the read and the write of every byte.
#pragma once

#include <cstdint>

#include "haloflag/notify/backend.hpp"

namespace haloflag::bench {

struct CopyRate {
  double bytes_per_second = 0.0;  // 2 * bytes / seconds: the read and the write counted
  std::int64_t bytes = 0;         // bytes of one copy (the size asked for)
  double seconds = 0.0;           // one copy, the median over the repeats
};

// Copies `bytes` from one fresh buffer to another, first untimed (warm-up) and then `repeats`
// times, each timed on its own: GPU events around a cudaMemcpyAsync (hipMemcpyAsync) on a
// stream of its own, or the steady clock around a std::memcpy on the host backend. Returns the
// median copy. Allocates and frees two buffers of `bytes` on the backend: on a GPU, freeing
// waits for the whole device, so call it where no kernel of the program's stays resident (before
// an exchange with resident kernels exists, for instance). Throws std::invalid_argument for
// bytes < 1 or repeats < 1, notify::NotifyError when the GPU runtime fails or the backend is not
// in this build.
CopyRate measure_copy_rate(haloflag::notify::Backend backend, std::int64_t bytes,
                           int repeats = 20);

}  // namespace haloflag::bench
