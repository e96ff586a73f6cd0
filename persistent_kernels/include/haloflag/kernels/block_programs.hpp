/// @file
/// What one block of each exchange kernel does, written once over a "group" so that the CUDA/HIP
/// kernels and the host backend's CPU threads run the same code.
///
/// Groups are the type of block_waits.hpp: a GPU block, a cooperative grid, or host threads.
///
/// Flag protocol (docs/design.md): the group's members write the payload, meet at a barrier, then
/// member 0 alone signals with a system-scope release store. Waits are done by member 0 with the
/// plan's deadline and abort flag; the outcome reaches the other members through from_leader.
#pragma once

#include <cstdint>

#include "haloflag/kernels/block_waits.hpp"
#include "haloflag/kernels/detail/exchange_plan.hpp"
#include "haloflag/kernels/idle_exit.hpp"
#include "haloflag/kernels/pack_unpack.hpp"
#include "haloflag/kernels/transports/mpi/mpi_route.hpp"
#include "haloflag/kernels/transports/piece_grid_steps.hpp"
#include "haloflag/kernels/transports/routes.hpp"
#include "haloflag/notify/flag_ops.hpp"
#include "haloflag/notify/portability.hpp"
#include "haloflag/notify/stream_release.hpp"

namespace haloflag::kernels {

/// Packs send `message` with the whole group, then member 0 signals it packed.
template <ExchangeGroup Group>
HF_HD BlockStatus pack_and_signal(const Group& group, const ExchangePlan& plan,
                                  std::uint32_t message, std::uint64_t epoch,
                                  std::uint32_t waiter) {
  (void)waiter;
  if (group.thread() == 0) stamp_device_time(plan.times.send_slot(message, SendTime::pack_begin));
  pack_message_at(plan.sends[message], fields_of(plan), send_data(plan, message), group.thread(),
                  group.size());
  group.sync();
  if (group.thread() == 0) {
    stamp_device_time(plan.times.send_slot(message, SendTime::packed));
    signal_packed(plan, message, epoch);
  }
  return BlockStatus::ok;
}

/// Unpacks receive `message`, which has arrived, with the whole group, then signals it unpacked.
template <ExchangeGroup Group>
HF_HD void unpack_and_signal(const Group& group, const ExchangePlan& plan, std::uint32_t message,
                             std::uint64_t epoch) {
  if (group.thread() == 0) stamp_device_time(plan.times.recv_slot(message, RecvTime::ready_seen));
  unpack_message_from(plan.recvs[message], fields_of(plan), recv_data(plan, message),
                      group.thread(), group.size());
  group.sync();
  if (group.thread() == 0) {
    stamp_device_time(plan.times.recv_slot(message, RecvTime::unpacked));
    signal_unpacked(plan, message, epoch);
  }
}

/// Waits for receive `message` to arrive, unpacks it with the whole group, then signals it unpacked.
template <ExchangeGroup Group>
HF_HD BlockStatus wait_and_unpack(const Group& group, const ExchangePlan& plan,
                                  std::uint32_t message, std::uint64_t epoch,
                                  std::uint32_t waiter) {
  const BlockStatus status = wait_arrival(group, plan, message, epoch, waiter);
  if (status != BlockStatus::ok) return status;
  unpack_and_signal(group, plan, message, epoch);
  return BlockStatus::ok;
}

/// One block's share of a long message moved by a team of blocks (the stacked grid, or the long
/// sends' blocks): the team's threads stride over the message together (block b's thread t is
/// team thread b * block size + t), so every block moves a slice of it without waiting for the
/// others.
struct GridShare {
  int thread;  ///< this block's thread's index in the team
  int size;  ///< threads in the team
};

/// The share of thread `block.thread()` of block `block_index` in a team of `blocks` blocks.
template <class Block>
HF_HD GridShare grid_share(const Block& block, std::uint32_t block_index, std::uint32_t blocks) {
  return {static_cast<int>(block_index) * block.size() + block.thread(),
          static_cast<int>(blocks) * block.size()};
}

/// The stacked kernel's blocks split into `count` groups of consecutive blocks, one per long
/// receive (fewer when the receives outnumber the blocks); `blocks` members from `first`.
struct BlockGroup {
  std::uint32_t index;  ///< this block's group
  std::uint32_t count;  ///< number of groups
  std::uint32_t first;  ///< the group's first block
  std::uint32_t blocks;  ///< blocks in the group
};

/// The long-receive group of block `block_index` among `blocks` blocks of the stacked kernel.
HF_HD inline BlockGroup long_receive_group(const ExchangePlan& plan, std::uint32_t block_index,
                                           std::uint32_t blocks) {
  const std::uint32_t long_recvs = plan.recv_count - plan.short_recvs;
  const std::uint32_t count = long_recvs == 0 ? 1 : (long_recvs < blocks ? long_recvs : blocks);
  // Group g holds blocks [ceil(g * blocks / count), ceil((g + 1) * blocks / count)).
  const auto begin = [&](std::uint64_t g) {
    return static_cast<std::uint32_t>((g * blocks + count - 1) / count);
  };
  const auto index = static_cast<std::uint32_t>(std::uint64_t{block_index} * count / blocks);
  return {index, count, begin(index), begin(index + 1) - begin(index)};
}

/// The block has finished its share of a long message: it counts itself in (device-scope
/// acquire-release). True for thread 0 of the block that completes the count, which then signals
/// for all with a system-scope release (signal_packed, signal_unpacked) that also publishes the
/// other blocks' shares (release is cumulative). Counters only grow, by `blocks` per exchange.
template <class Block>
HF_HD bool completes_count(const Block& block, std::uint64_t* shares_done, std::uint32_t blocks,
                           std::uint32_t index) {
  block.sync();
  if (block.thread() != 0) return false;
  const std::uint64_t before = notify::count_in_same_side(&shares_done[index]);
  return (before + 1) % blocks == 0;
}

/// A short send of stream_notify, resident or stacked_notify counts itself in once signalled;
/// the block completing the exchange's count releases the long sends (ExchangePlan). The gate
/// orders work, not data (a long send needs nothing of the short ones), so it is released at
/// device scope: a system-scope release would first wait for the block's send_ready store to
/// cross PCIe, a few microseconds in which no long send is packed.
template <ExchangeGroup Group>
HF_HD void count_short_send(const Group& group, const ExchangePlan& plan, std::uint64_t epoch) {
  if (plan.short_send_count == 0 || group.thread() != 0) return;
  const std::uint64_t before = notify::count_in_same_side(plan.short_sends_counted);
  if ((before + 1) % plan.short_send_count == 0) {
    notify::store_release_same_side(plan.short_sends_signalled.word(0), epoch);
  }
}

/// At device scope, the gate's own, and without abort reads: every long-send block waits here,
/// and GPU reads of the one host line of the abort flag are served one after another. Short sends
/// never wait on anything once packing began, so the deadline is enough.
template <ExchangeGroup Group>
HF_HD BlockStatus wait_for_short_sends(const Group& group, const ExchangePlan& plan,
                                       std::uint64_t epoch, std::uint32_t waiter) {
  if (plan.short_send_count == 0) return BlockStatus::ok;
  return leader_wait(group, plan.short_sends_signalled, 0, epoch, plan.control, waiter,
                     notify::AbortReads::none, notify::Scope::same_side);
}

/// What a block of the stream_notify or resident pack (unpack) grid does: blocks [0, messages)
/// each own the send (receive) of their index, as member 0 of its team; with a team of more than
/// one block per long message (ExchangePlan::long_send_team, long_recv_team), the blocks after
/// them help the long messages, team - 1 each, in short-first order (sends_short_first,
/// recvs_short_first).
struct TeamRole {
  std::uint32_t message;  ///< the message the block works on
  std::uint32_t member;  ///< the block's place in that message's team (0: its own block)
};

/// The messages of one direction as its grid lays out its blocks (TeamRole).
struct TeamGrid {
  std::uint32_t messages;  ///< sends or receives
  std::uint32_t short_messages;  ///< of them, the short ones
  std::uint32_t team;  ///< blocks per long message
  const std::uint32_t* short_first;  ///< the messages, short ones first
};

/// The pack grid's layout: the sends.
HF_HD inline TeamGrid pack_grid(const ExchangePlan& plan) {
  return {plan.send_count, plan.short_sends, plan.long_send_team, plan.sends_short_first};
}

/// The unpack grid's layout: the receives.
HF_HD inline TeamGrid unpack_grid(const ExchangePlan& plan) {
  return {plan.recv_count, plan.short_recvs, plan.long_recv_team, plan.recvs_short_first};
}

/// Blocks of a grid: one per message, then the long messages' helpers.
HF_HD inline std::uint32_t team_grid_blocks(const TeamGrid& grid) {
  return grid.messages + (grid.team - 1) * (grid.messages - grid.short_messages);
}

/// The role of block `block` of a grid.
HF_HD inline TeamRole team_role(const TeamGrid& grid, std::uint32_t block) {
  if (block < grid.messages) return {block, 0};
  const std::uint32_t helper = block - grid.messages;
  const std::uint32_t helpers = grid.team - 1;
  return {grid.short_first[grid.short_messages + helper / helpers], 1 + helper % helpers};
}

/// Number of long sends (those not short).
HF_HD inline std::uint32_t long_send_count(const ExchangePlan& plan) {
  return plan.send_count - plan.short_sends;
}

/// Blocks of the stream_notify or resident pack grid: one per send, then the long sends' helpers.
HF_HD inline std::uint32_t pack_blocks(const ExchangePlan& plan) {
  return team_grid_blocks(pack_grid(plan));
}

/// Blocks of the stream_notify or resident unpack grid: one per receive, then the long receives' helpers.
HF_HD inline std::uint32_t unpack_blocks(const ExchangePlan& plan) {
  return team_grid_blocks(unpack_grid(plan));
}

/// The role of unpack-grid block `block`.
HF_HD inline TeamRole unpack_role(const ExchangePlan& plan, std::uint32_t block) {
  return team_role(unpack_grid(plan), block);
}

/// Member `member` of the team of `members` groups that unpacks long receive `r`. Member 0
/// awaits the arrival (the only group reading that host line: GPU reads of one host line are
/// served one after another) and copies what it saw to device memory (unpack_ready_relay;
/// kStopEpoch when its wait failed, the host said stop, or `stopped` says the caller already
/// failed, so the others leave too); the others wait on the copy. Every member then unpacks its
/// share and counts itself in, and the last one signals. The stream and resident unpack grids
/// (unpack_receive) and the stacked grid's long receives both go through here.
template <ExchangeGroup Group>
HF_HD BlockStatus unpack_long_by_team(const Group& group, const ExchangePlan& plan,
                                      std::uint32_t r, std::uint32_t member,
                                      std::uint32_t members, std::uint64_t epoch,
                                      std::uint32_t waiter, bool stopped = false) {
  BlockStatus status = BlockStatus::failed;
  if (member == 0) {
    if (!stopped) status = wait_arrival(group, plan, r, epoch, waiter);
    if (group.thread() == 0) {
      const bool ok = status == BlockStatus::ok;
      if (ok) stamp_device_time(plan.times.recv_slot(r, RecvTime::ready_seen));
      // Release: the other members read the received data after acquiring the copy.
      notify::signal_flag(plan.unpack_ready_relay, r, ok ? epoch : kStopEpoch);
    }
  } else if (!stopped) {
    // Member 0 reads the abort flag and stops the copy: the others only poll device memory.
    status = leader_wait(group, plan.unpack_ready_relay, r, epoch, plan.control, waiter,
                         notify::AbortReads::none);
  }
  if (status != BlockStatus::ok) return status;
  const GridShare share = grid_share(group, member, members);
  unpack_message_from(plan.recvs[r], fields_of(plan), recv_data(plan, r), share.thread,
                      share.size);
  if (completes_count(group, plan.long_recv_shares_done, members, r)) {
    stamp_device_time(plan.times.recv_slot(r, RecvTime::unpacked));
    signal_unpacked(plan, r, epoch);
  }
  return BlockStatus::ok;
}

/// One receive by one block of the unpack grid: a short receive, or any receive without a team,
/// is awaited and unpacked by its own block; a long one by its team (its own block is member 0).
template <ExchangeGroup Group>
HF_HD BlockStatus unpack_receive(const Group& group, const ExchangePlan& plan, TeamRole role,
                                 std::uint64_t epoch, std::uint32_t waiter) {
  const std::uint32_t r = role.message;
  if (recv_in_pieces(plan, r)) return BlockStatus::ok;  // the piece grid's
  if (plan.long_recv_team == 1 || !is_long(plan, plan.recvs[r])) {
    return wait_and_unpack(group, plan, r, epoch, waiter);
  }
  return unpack_long_by_team(group, plan, r, role.member, plan.long_recv_team, epoch, waiter);
}

/// A team member's share of long send `m` (`share`, in a team of `members` groups): packed, then
/// counted in; the member completing the message's count signals it.
template <ExchangeGroup Group>
HF_HD HF_FORCEINLINE void pack_share_and_count(const Group& group, const ExchangePlan& plan,
                                               std::uint32_t m, GridShare share,
                                               std::uint32_t members, std::uint64_t epoch) {
  pack_message_at(plan.sends[m], fields_of(plan), send_data(plan, m), share.thread, share.size);
  if (completes_count(group, plan.long_send_shares_done, members, m)) {
    stamp_device_time(plan.times.send_slot(m, SendTime::packed));
    signal_packed(plan, m, epoch);
  }
}

/// The long sends packed in turn by a team of `members` groups (member `member` of them): for
/// each long message in order, every member packs its share (the team's threads stride over the
/// message together), counts itself in and goes on to the next message without waiting; the
/// member completing a message's count signals it. The stacked grid does this with all its
/// blocks; stream_notify and resident with the blocks of the long sends when
/// ExchangePlan::long_sends_in_turn is set. The team issues message i's writes before those of
/// message i + 1, and PCIe delivers them in that order, so the first long message is handed on
/// after its own data has crossed, not after all of it.
/// Node sends are the node grid's: the team passes them by.
template <ExchangeGroup Group>
HF_HD BlockStatus pack_long_sends_in_turn(const Group& group, const ExchangePlan& plan,
                                          std::uint32_t member, std::uint32_t members,
                                          std::uint64_t epoch) {
  const GridShare share = grid_share(group, member, members);
  for (std::uint32_t i = plan.short_sends; i < plan.send_count; ++i) {
    const std::uint32_t m = plan.sends_short_first[i];
    if (send_in_pieces(plan, m)) continue;
    if (member == 0 && group.thread() == 0) {  // when member 0 reaches the message
      stamp_device_time(plan.times.send_slot(m, SendTime::pack_begin));
    }
    pack_share_and_count(group, plan, m, share, members, epoch);
  }
  return BlockStatus::ok;
}

/// The role of pack-grid block `block`.
HF_HD inline TeamRole pack_role(const ExchangePlan& plan, std::uint32_t block) {
  return team_role(pack_grid(plan), block);
}

/// Member `role.member` of the team of long send `role.message` packs its share; the member
/// completing the message's count signals it. One member alone packs and signals it whole.
template <ExchangeGroup Group>
HF_HD BlockStatus pack_long_send(const Group& group, const ExchangePlan& plan, TeamRole role,
                                 std::uint64_t epoch) {
  const std::uint32_t m = role.message;
  if (plan.long_send_team == 1) return pack_and_signal(group, plan, m, epoch, m);
  if (role.member == 0 && group.thread() == 0) {
    stamp_device_time(plan.times.send_slot(m, SendTime::pack_begin));
  }
  const GridShare share = grid_share(group, role.member, plan.long_send_team);
  pack_share_and_count(group, plan, m, share, plan.long_send_team, epoch);
  return BlockStatus::ok;
}

/// Block `block` of the stream_notify or resident pack grid: a short send is packed and counted
/// at once; a long one once every short send is signalled, by its team (its own block and its
/// helpers) or, with long sends in turn, by the team of every long send's blocks, one message
/// after another.
template <ExchangeGroup Group>
HF_HD BlockStatus pack_block(const Group& group, const ExchangePlan& plan, std::uint32_t block,
                             std::uint64_t epoch) {
  // The node grid moves node sends; their blocks (and helpers) have nothing to do, but for the
  // long ones' places in the team that packs the long sends in turn.
  if (block < plan.send_count && send_in_pieces(plan, block) &&
      (!plan.long_sends_in_turn || !is_long(plan, plan.sends[block]))) {
    return BlockStatus::ok;
  }
  if (block >= plan.send_count && !plan.long_sends_in_turn &&
      send_in_pieces(plan, pack_role(plan, block).message)) {
    return BlockStatus::ok;
  }
  if (block < plan.send_count && !is_long(plan, plan.sends[block])) {
    const BlockStatus status = pack_and_signal(group, plan, block, epoch, block);
    if (status != BlockStatus::ok) return status;
    count_short_send(group, plan, epoch);
    return BlockStatus::ok;
  }
  const BlockStatus status = wait_for_short_sends(group, plan, epoch, block);
  if (status != BlockStatus::ok) return status;
  if (plan.long_sends_in_turn) {
    const std::uint32_t long_sends = long_send_count(plan);
    const std::uint32_t member = block < plan.send_count
                                     ? plan.long_send_member[block]
                                     : long_sends + (block - plan.send_count);
    return pack_long_sends_in_turn(group, plan, member, long_sends * plan.long_send_team, epoch);
  }
  return pack_long_send(group, plan, pack_role(plan, block), epoch);
}

/// The start of one epoch for resident pack work: wait until the CPU says the previous epoch's
/// MPI sends are out of the send buffer, and until the host (or the caller's stream) says the
/// fields are ready. The send buffer comes first: it is usually free while the caller's stream
/// still computes, so once the start is stored only one read across the bus remains. One group
/// (the block of message 0; on the host the thread running it) watches the host's flags and
/// relays what it saw (the epoch, or the stop value; kStopEpoch too when its wait failed)
/// through device memory; the others follow the relay and leave the abort flag to it. When the
/// watcher leaves idle (idle_exit.hpp) it relays nothing: the followers see it leave.
template <ExchangeGroup Group>
HF_HD BlockStatus resident_pack_start(const Group& group, const ExchangePlan& plan,
                                      bool watches_host, std::uint32_t waiter,
                                      ResidentLaunch launch, std::uint64_t epoch) {
  if (!watches_host) {
    return follow_start(group, plan, launch, plan.pack_start_relay.word(0), notify::Scope::system,
                        epoch, waiter, false);
  }
  BlockStatus status = BlockStatus::ok;
  if (plan.send_buffer_free.count != 0 && epoch > 1) {
    status = leader_wait(group, plan.send_buffer_free, 0, epoch - 1, plan.control, waiter);
  }
  std::uint64_t seen = kStopEpoch;  // thread 0's: the pack_start that ended its wait
  if (status == BlockStatus::ok) status = watch_start(group, plan, launch, epoch, waiter, seen);
  if (status != BlockStatus::left && group.thread() == 0) {
    notify::signal_flag(plan.pack_start_relay, 0,
                        status == BlockStatus::failed ? kStopEpoch : seen);
  }
  return status;
}

/// One epoch of a resident pack block.
template <ExchangeGroup Group>
HF_HD BlockStatus resident_pack_step(const Group& group, const ExchangePlan& plan,
                                     std::uint32_t block, ResidentLaunch launch,
                                     std::uint64_t epoch) {
  const BlockStatus status = resident_pack_start(group, plan, block == 0, block, launch, epoch);
  if (status != BlockStatus::ok) return status;
  return pack_block(group, plan, block, epoch);
}

/// One epoch of a resident unpack block (`block` of the unpack grid: unpack_role). It first waits
/// for the exchange to start, on the pack block's relay of pack_start in device memory: a block
/// done with one exchange would otherwise poll the host for the next one, and those PCIe reads
/// slow the long unpacks still running.
template <ExchangeGroup Group>
HF_HD BlockStatus resident_unpack_step(const Group& group, const ExchangePlan& plan,
                                       std::uint32_t block, ResidentLaunch launch,
                                       std::uint64_t epoch) {
  const BlockStatus status =
      follow_start(group, plan, launch, plan.pack_start_relay.word(0), notify::Scope::system, epoch,
                   block, true);
  if (status != BlockStatus::ok) return status;
  return unpack_receive(group, plan, unpack_role(plan, block), epoch, block);
}

/// The stacked kernel (§4.2) for one block of a cooperative grid of `blocks` blocks:
///  1. short MPI sends, each packed and signalled by one block (round robin);
///  2. the piece grid's sends (piece_grid_steps.hpp: node, then self), over every block;
///  3. once every short MPI send is signalled (ExchangePlan::short_send_count), long MPI sends,
///     in message order: every block packs its share of the message, counts itself in, and goes
///     on to the next message; the last block to finish a message signals it. No block waits for
///     another, and since a thread's share is set by its place in the whole buffer, different
///     long messages mostly fall to different blocks and are packed at once.
///  4. short MPI receives, each awaited and unpacked by one block (round robin);
///  5. long MPI receives at once, each by its own group of consecutive blocks (long receive i by
///     group i % groups), as a team (unpack_long_by_team). Long receives tend to complete
///     together: unpacked one after another by the whole grid, each waits on the previous one's
///     relay, while groups reading at once are bound only by the bus.
///  6. the piece grid's receives (node), over every block.
/// The grid must be co-resident (cooperative launch): blocks wait on their leader's copies. Every
/// wait has the plan's deadline. A block whose wait failed (recorded in the control block)
/// leaves; a group leader then stores kStopEpoch into its remaining copies so the other blocks
/// leave at once instead of at their own deadline.
template <LinesCode Lines, class Block>
HF_HD void stacked_exchange(const Block& block, const ExchangePlan& plan,
                            std::uint32_t block_index, std::uint32_t blocks,
                            std::uint64_t epoch) {
  bool failed = false;
  if (block_index == 0 && block.thread() == peer_word_writer(block)) {
    announce_ghosts_free<AnnounceNote::unnoted>(plan, epoch);
  }
  for (std::uint32_t i = block_index; i < plan.short_sends && !failed; i += blocks) {
    const std::uint32_t m = plan.sends_short_first[i];
    if (send_in_pieces(plan, m)) continue;
    failed = pack_and_signal(block, plan, m, epoch, block_index) != BlockStatus::ok;
    if (!failed) count_short_send(block, plan, epoch);
  }
  if (!failed) {
    failed = piece_grid_sends<Lines>(block, plan, block_index, blocks, epoch) != BlockStatus::ok;
  }
  if (!failed) failed = wait_for_short_sends(block, plan, epoch, block_index) != BlockStatus::ok;
  if (!failed) {
    failed = pack_long_sends_in_turn(block, plan, block_index, blocks, epoch) != BlockStatus::ok;
  }
  for (std::uint32_t i = block_index; i < plan.short_recvs && !failed; i += blocks) {
    const std::uint32_t r = plan.recvs_short_first[i];
    if (recv_in_pieces(plan, r)) continue;
    failed = wait_and_unpack(block, plan, r, epoch, block_index) != BlockStatus::ok;
  }
  const BlockGroup group = long_receive_group(plan, block_index, blocks);
  for (std::uint32_t i = plan.short_recvs + group.index; i < plan.recv_count; i += group.count) {
    const std::uint32_t r = plan.recvs_short_first[i];
    if (recv_in_pieces(plan, r)) continue;
    // A failed first block still takes part: it stops its remaining copies.
    if (failed && block_index != group.first) continue;
    failed = unpack_long_by_team(block, plan, r, block_index - group.first, group.blocks, epoch,
                                 block_index, failed) != BlockStatus::ok;
  }
  if (!failed) (void)piece_grid_receives<Lines>(block, plan, block_index, blocks, epoch);
}

}  // namespace haloflag::kernels
