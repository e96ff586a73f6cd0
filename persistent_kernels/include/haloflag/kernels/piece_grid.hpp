/// @file
/// What every transport of the piece grid shares (ExchangePlan::pieces): the count of the
/// epoch's work, whose last piece tells the CPU and the stream that the grid is done.
#pragma once

#include <cstdint>

#include "haloflag/kernels/block_waits.hpp"
#include "haloflag/kernels/detail/exchange_plan.hpp"
#include "haloflag/notify/flag_ops.hpp"
#include "haloflag/notify/portability.hpp"

namespace haloflag::kernels {

/// `amount` pieces of this rank's piece-grid work are done (one thread): the block completing
/// the epoch's count tells the CPU with the grid's done flag, and the stream with one done unit.
/// In the caller's kernel the flag only marks progress for the host, which reads the fields after
/// the kernel ends, so it is stored relaxed (rule 3): a release there waited for the epoch's
/// writes on every exchange's critical path. For the same reason the count is relaxed there: its
/// release waited for the counting thread's last store across NVLink.
HF_HD inline void count_piece_work(const ExchangePlan& plan, std::uint64_t epoch,
                                   std::uint64_t amount) {
  const std::uint64_t total = plan.pieces.work_per_epoch();
  const bool callers_kernel = in_callers_kernel(plan);
  const std::uint64_t before =
      callers_kernel ? notify::count_relaxed_same_side(plan.pieces.work_done, amount)
                     : notify::count_in_same_side(plan.pieces.work_done, amount);
  if ((before + amount) % total == 0) {
    if (callers_kernel) {
      notify::store_relaxed_system(plan.pieces.done.word(0), epoch);
    } else {
      notify::signal_flag(plan.pieces.done, 0, epoch);
    }
    count_done_unit(plan, epoch);
  }
}

}  // namespace haloflag::kernels
