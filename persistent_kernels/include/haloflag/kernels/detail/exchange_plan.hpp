/// @file
/// Internal: the library's own kernels and the Exchange use this struct; its fields may change
/// between versions. User code holds a DevicePlan (haloflag/kernels/device_plan.hpp) instead.
///
/// Everything the pack and unpack work of one rank touches, as plain views: the message layouts,
/// the fields, the send and receive buffers, and the flags. Trivially copyable, so kernels take
/// it by value; host-team threads get the same struct with host addresses.
#pragma once

#include <cstdint>
#include <limits>
#include <type_traits>

#include "haloflag/kernels/device_times.hpp"
#include "haloflag/kernels/field_set.hpp"
#include "haloflag/kernels/idle_exit_plan.hpp"
#include "haloflag/kernels/message_layout.hpp"
#include "haloflag/notify/flag_array_view.hpp"
#include "haloflag/notify/portability.hpp"
#include "haloflag/notify/wait_control.hpp"

namespace haloflag::kernels {

/// The value the host stores into every host-written flag to end resident kernels: it is larger
/// than any epoch, so every wait succeeds, and the reader sees it is the end.
inline constexpr std::uint64_t kStopEpoch = std::numeric_limits<std::uint64_t>::max();

struct NodePlan;  // the node transport's route table (transports/node/node_route.hpp)
struct SelfPlan;  // the self transport's (transports/self/self_route.hpp)

/// The device routes by kind (docs/design.md, "Transports and strategies"): each transport with a
/// device half uploads its own table to device-readable memory and points the plan at it; null
/// where no message takes that route. The mpi route needs no table: its messages are packed by a
/// block each into the send buffer above and signalled through the flags. Only the route
/// dispatch (transports/routes.hpp) and each transport's own device code look inside a table.
struct RouteTables {
  const NodePlan* node = nullptr;  ///< node peers: pieces straight into the peer's memory
  const SelfPlan* self = nullptr;  ///< the rank itself: its cells into its own ghost cells
  /// Some node peer sends or takes lines: the launched grids then run their build with the
  /// lines' code (transports/node/node_lines.hpp, LinesCode).
  bool node_lines = false;
};

/// The piece grid: the grid that moves, in pieces and with no CPU step, the messages of every
/// transport whose route works that way (node, self), whatever the strategy
/// (transports/piece_grid_steps.hpp).
struct PieceGrid {
  std::uint32_t send_pieces = 0;  ///< send pieces per epoch, every such transport's
  std::uint32_t recv_pieces = 0;  ///< receive pieces per epoch
  /// Device memory: pieces done so far; the block completing an epoch's work_per_epoch() stores
  /// the epoch into `done` (a receive from a directly placing peer counts its pieces at once).
  std::uint64_t* work_done = nullptr;
  /// Device memory, [1]: the grid's block 0 copies the exchange's start here for the others.
  std::uint64_t* start_relay = nullptr;
  /// [1] in pinned host memory: the CPU learns from this one flag that every message of the
  /// grid is done.
  notify::FlagArrayView done;

  /// Pieces done per epoch: sent and received.
  HF_HD std::uint32_t work_per_epoch() const { return send_pieces + recv_pieces; }
  /// Whether any message moves through the grid.
  HF_HD bool any() const { return work_done != nullptr; }
};

/// ExchangePlan::fields_slot of fields that no node sender may place into directly.
inline constexpr std::uint32_t kUnregisteredFields = 15;

struct ExchangePlan {
  const MessageLayout* sends = nullptr;  ///< send_count layouts (device-readable memory)
  const MessageLayout* recvs = nullptr;  ///< recv_count layouts
  std::uint32_t send_count = 0;
  std::uint32_t recv_count = 0;
  FieldSet fields{};                  ///< the variables, in device memory
  /// Fields chosen per exchange (Exchange::start(fields)): when field_bank is set, the kernels
  /// use field_bank[*field_slot] instead of `fields` (fields_of). Both in device memory; the
  /// slot is stored before the exchange's pack_start (by the host or on the caller's stream),
  /// and every block reads it after waiting for that start.
  const FieldSet* field_bank = nullptr;
  const std::uint32_t* field_slot = nullptr;
  /// Where the caller's kernel picks its fields (no field_slot): the slot of `fields` among the
  /// Exchange's registered FieldSets when the caller let node senders place into them directly
  /// (halo::Exchange::device_plan(fields)), else kUnregisteredFields: into this rank's buffers.
  std::uint32_t fields_slot = kUnregisteredFields;
  std::byte* send_buffer = nullptr;        ///< mapped host memory: kernels write it directly
  const std::byte* recv_buffer = nullptr;  ///< mapped host memory: kernels read it directly

  notify::FlagArrayView send_ready;    ///< [send_count], device writes: message packed
  notify::FlagArrayView unpack_ready;  ///< [recv_count], host writes: message received
  notify::FlagArrayView unpack_done;   ///< [recv_count], device writes: message unpacked
  notify::FlagArrayView pack_start;    ///< [1], host writes: fields ready to pack (resident)
  /// [1] in device memory: the resident pack block of message 0 copies pack_start here and the
  /// other blocks wait on the copy. GPU reads of host memory are served one after another, so
  /// one block polling the host instead of all keeps the bus free for the blocks' data.
  notify::FlagArrayView pack_start_relay;
  /// stacked_notify, in device memory: [send_count] and [recv_count] counters of the blocks that
  /// finished their share of a long message (the last one signals), and [recv_count] copies of
  /// unpack_ready that block 0 makes for long receives (the other blocks wait on the copy).
  std::uint64_t* long_send_shares_done = nullptr;
  std::uint64_t* long_recv_shares_done = nullptr;
  notify::FlagArrayView unpack_ready_relay;
  /// Short sends first (stream_notify, resident, stacked_notify): the blocks of long sends start
  /// packing once every short send is signalled. The GPU's writes reach host memory in the order
  /// they were issued, so a short send's flag issued behind the long sends' data lands only when
  /// that data has crossed PCIe, and the CPU, which could be posting the short sends meanwhile,
  /// waits idle. In device memory: a counter of short sends
  /// signalled (it grows by short_send_count per exchange) and [1] flag that the block
  /// completing the count sets to the epoch. short_send_count 0: no ordering.
  std::uint32_t short_send_count = 0;
  std::uint64_t* short_sends_counted = nullptr;
  notify::FlagArrayView short_sends_signalled;
  notify::WaitControl control;         ///< deadline, abort flag, failure record

  /// Messages of at least this many bytes are long (is_long): the flag strategies pack them after
  /// the short sends, and stacked_notify packs and unpacks them with the threads of the whole grid
  /// together, shorter ones with single blocks.
  std::int64_t long_message_bytes = 0;

  /// Message indexes, the short messages first and then the long ones (each in message order),
  /// with the number of short ones: a stacked block goes straight to its messages. Walking the
  /// message list and working out each layout's size takes dependent loads from device memory
  /// per message, which would delay block k's start in proportion to k and add as much between
  /// two long messages.
  /// Set by an Exchange's resources for the stacked kernel; null in plans built elsewhere (the
  /// pack/unpack calibration), whose kernels do not read them.
  const std::uint32_t* sends_short_first = nullptr;  ///< [send_count], device-readable memory
  const std::uint32_t* recvs_short_first = nullptr;  ///< [recv_count]
  std::uint32_t short_sends = 0;  ///< always the count (short_send_count is 0 without long sends)
  std::uint32_t short_recvs = 0;

  /// Long sends in turn (stream_notify, resident; AdvancedOptions::long_sends_in_turn): the
  /// blocks of the long sends pack the long messages together, one message after another, so
  /// that the first is signalled after a sixth of the long data has crossed PCIe instead of
  /// all six at once with it. long_send_member[m] is long send m's place among the long sends
  /// (its block's member index in that team); null when the plan has no such list.
  bool long_sends_in_turn = false;
  const std::uint32_t* long_send_member = nullptr;  ///< [send_count], device-readable memory

  /// stream_notify and resident: blocks per long receive (LaunchSettings::long_receive_blocks;
  /// 1 on the host backend). The unpack grid has recv_count blocks, one per receive, then
  /// long_recv_team - 1 helpers per long receive, in recvs_short_first order (unpack_role).
  std::uint32_t long_recv_team = 1;
  /// The same for long sends packed in turn (LaunchSettings::long_send_blocks): the pack grid has
  /// send_count blocks, then long_send_team - 1 helpers per long send, all members of the team
  /// that packs the long sends (pack_blocks, pack_role).
  std::uint32_t long_send_team = 1;

  /// The routes of the transports with tables of their own, and the piece grid that moves their
  /// messages instead of the per-message blocks.
  RouteTables routes;
  PieceGrid pieces;
  /// False when no message is packed by a block of its own (every one moves through the piece
  /// grid): the per-message kernels are not launched at all.
  bool message_blocks = true;

  /// Stream-ordered exchanges (Exchange::wait(stream)): every MPI send and receive counts itself
  /// in once signalled, and the piece grid once for all its messages; the block completing the
  /// exchange's done_units stores the epoch into exchange_done, the word a stream waits on. Both
  /// in device memory; null: none.
  std::uint32_t done_units = 0;
  std::uint64_t* messages_counted = nullptr;
  std::uint64_t* exchange_done = nullptr;
  /// [1] in pinned host memory, host writes: the MPI sends of that epoch completed, so the send
  /// buffer is free. A start ordered on the caller's stream can come before the CPU has seen the
  /// previous exchange end, so the resident pack kernel waits for it; count 0 when no send
  /// goes through the send buffer (every one moves through the piece grid).
  notify::FlagArrayView send_buffer_free;

  /// [1] in device memory: the last exchange the caller's kernel started itself
  /// (embedded_exchange_start, haloflag/kernels/embedded_exchange.hpp); failure records name it
  /// device_epoch[0] (array device_epoch_id).
  std::uint64_t* device_epoch = nullptr;
  std::uint32_t device_epoch_id = 0;
  /// [1] in device memory: the last epoch at whose barrier some member of the caller's group
  /// had failed (embedded_barrier, haloflag/kernels/embedded_api.hpp); 0 before any.
  std::uint64_t* group_failed_epoch = nullptr;

  /// Per-message device times for traces; slots null when the exchange is not traced.
  DeviceTimesView times;

  /// Resident kernels that leave the GPU when idle (idle_exit.hpp); window 0: they stay.
  IdleExitPlan idle;
};

static_assert(std::is_trivially_copyable_v<ExchangePlan>);

HF_HD inline bool is_long(const ExchangePlan& plan, const MessageLayout& layout) {
  return layout.bytes() >= plan.long_message_bytes;
}

/// Whether the plan is the caller's kernel's (DevicePlan, which names its fields itself and
/// has no field_slot), not a launched grid's, whose host or stream picks the fields.
HF_HD inline bool in_callers_kernel(const ExchangePlan& plan) { return plan.field_slot == nullptr; }

/// The fields of the exchange in progress.
HF_HD inline const FieldSet& fields_of(const ExchangePlan& plan) {
  if (plan.field_bank == nullptr) return plan.fields;
  return plan.field_bank[*static_cast<const volatile std::uint32_t*>(plan.field_slot)];
}

}  // namespace haloflag::kernels
