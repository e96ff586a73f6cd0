// Whether a stencil example's resident kernel updates its boundary inside the exchange's sends
// (kernels::embedded_exchange_start's `update`) or first, behind a grid barrier: plain C++, so
// that the rule is tested on a machine without a GPU (examples/common/README.md, "The resident
// kernel's boundary").
//   - Inside the sends, the grid meets at one barrier fewer per iteration, which is most of what
//     a small rank's iteration waits for.
//   - But only the blocks that send update the boundary, before their share of the interior, so
//     where each thread has a long interior to sweep those blocks end the iteration late. The
//     boundary spread over every block, behind the barrier, then costs less.
//   - Unless the blocks take the interior's last rounds from a counter (Jacobi3D's
//     interior_by_counter.hpp): those that send then take fewer, and the sends update at every
//     size.
#pragma once

#include <cstdint>

namespace haloflag::examples {

// Cells of a step per thread of the grid above which the boundary goes first: between the
// largest rank measured faster with the sends updating (128^3 cells on 264 x 256 threads, 31
// each) and the smallest measured slower (256^3 on 528 x 256, 124 each).
inline constexpr std::int64_t kSendsUpdateUpToCellsPerThread = 64;

// Whether the sends update the boundary for a rank of `cells` cells on a grid of `threads`
// threads in all; `interior_taken`: its blocks take the interior's last rounds from a counter.
constexpr bool sends_update_boundary(std::int64_t cells, std::int64_t threads,
                                     bool interior_taken) {
  return threads > 0 && (interior_taken || cells <= kSendsUpdateUpToCellsPerThread * threads);
}

}  // namespace haloflag::examples
