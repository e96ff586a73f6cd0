// How the resident kernel deals its interior rows among the members (threads) of its grid. A
// sweep deals item k to place k, k + members, ... (sweep_rows); the deal says how many places
// there are and which member takes which, so that the blocks with more exchange work to do get
// less of the interior, and the grid barrier that ends the iteration waits less for them.
#pragma once

#include <cstdint>

#include "haloflag/notify/portability.hpp"
#include "row_sweep.hpp"

namespace jacobi2d {

// The places a sweep deals its items among (sweep_rows' `members`), and how far the grid's
// members are turned into them (dealt_member). A member whose place is `members` or beyond
// takes no item.
struct InteriorDeal {
  std::int64_t members;
  std::int64_t turn;
};

// How far the members of a grid of `members`, in blocks of `block_members`, are turned in the
// deal of a sweep of `items` items among all of them. Where the items are fewer than the
// members, the members left without one are put on the grid's last block, then on its first
// blocks: its exchange gives those blocks more to do (the first move the pieces, the last reads
// the host's abort flag and publishes the norm). Where every member has an item or more, the
// deal is left as it is: a turn would leave every block's load as it was.
HF_HD inline std::int64_t deal_turn(std::int64_t items, std::int64_t members,
                                    std::int64_t block_members) {
  return items < members ? (block_members + items) % members : 0;
}

// Grid member `member`'s place in a deal turned by `turn`: sweep_rows' `member`. The host
// works the turn out once a run: every member of the grid would otherwise divide at the start
// of each sweep, all at once, before any of them loads a cell.
HF_HD inline std::int64_t dealt_member(std::int64_t member, std::int64_t members,
                                       std::int64_t turn) {
  const std::int64_t place = member + turn;
  return place < members ? place : place - members;
}

// The deal of the rows `set` of `step`'s plane for a grid of `members` in blocks of
// `block_members`, whose first `send_blocks` blocks move the exchange's send pieces
// (embedded_send_blocks). Those blocks start the interior last, and a full share kept them last
// at the barrier. So where the other blocks' members can take every item in one round (runs of
// kMaxRowRun rows at most) and are half the grid or more, they alone are dealt the items (their
// places first, the send blocks' after them); those left without an item are the grid's last
// blocks. Else the items go to every member, turned by deal_turn.
template <class Real>
HF_HD inline InteriorDeal interior_deal(const PlaneStep<Real>& step, const RowSet& set,
                                        std::int64_t members, std::int64_t block_members,
                                        std::int64_t send_blocks) {
  const std::int64_t others = members - send_blocks * block_members;
  if (send_blocks > 0 && 2 * others >= members && items_at_longest_run(step, set) <= others) {
    return {others, others};
  }
  return {members, deal_turn(sweep_items(step, set, members), members, block_members)};
}

}  // namespace jacobi2d
