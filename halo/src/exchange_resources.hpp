// Internal: the memory one Exchange owns and the plan its kernels receive: message layouts in
// device memory, send and receive buffers in pinned mapped host memory (zero-copy: kernels
// write and read them directly, MPI sends and receives from them) or, for Strategy::nccl, in
// device memory (NCCL moves device memory), and the flags.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "haloflag/halo/exchange_options.hpp"
#include "haloflag/halo/message_layouts.hpp"
#include "haloflag/kernels/detail/exchange_plan.hpp"
#include "haloflag/kernels/device_memory.hpp"
#include "haloflag/notify/control_block.hpp"
#include "haloflag/notify/flag_array.hpp"
#include "haloflag/notify/mapped_allocation.hpp"

namespace haloflag::halo::detail {

struct ExchangeResources {
  ExchangeResources(MessageLayouts message_layouts, const kernels::FieldSet& fields,
                    const ExchangeOptions& options);

  // A transport's messages move through the piece grid: `send_pieces` and `recv_pieces` more
  // per epoch (the grid's counters and done flag are made the first time).
  void add_to_piece_grid(std::uint32_t send_pieces, std::uint32_t recv_pieces);
  // Once every transport that moves pieces has joined the grid: the per-message blocks move the
  // messages not marked here, which sizes the short sends' gate, the done units and the send
  // buffer's flow control.
  void count_message_blocks(const std::vector<bool>& sends_in_pieces,
                            const std::vector<bool>& recvs_in_pieces);

  // The slot of `fields` in the field bank, registering it (a copy to the device) when new.
  // Throws ConfigError when the bank is full or the shape differs from the first FieldSet's.
  std::uint32_t field_slot_of(const kernels::FieldSet& fields);
  // The slot of `fields` when they are registered already.
  std::optional<std::uint32_t> registered_slot(const kernels::FieldSet& fields) const;
  std::uint32_t* field_slot_word() const;
  // Sets the field slot now (a copy to the device when it changes), for a start by the host.
  void select_fields(std::uint32_t slot);
  // The caller's stream will store `slot` before the next start: the copy that select_fields
  // would make is then not needed.
  void fields_selected_on_stream(std::uint32_t slot) { selected_slot_ = slot; }
  std::uint32_t selected_slot() const { return selected_slot_; }

  std::byte* send_buffer_host() const { return static_cast<std::byte*>(send_buffer.host()); }
  std::byte* recv_buffer_host() const { return static_cast<std::byte*>(recv_buffer.host()); }
  // Strategy::nccl: the buffers in device memory (null for the other strategies).
  std::byte* device_send_buffer() const { return static_cast<std::byte*>(device_sends.data()); }
  std::byte* device_recv_buffer() const { return static_cast<std::byte*>(device_recvs.data()); }

  MessageLayouts layouts;
  kernels::DeviceMemory send_layouts;
  kernels::DeviceMemory recv_layouts;
  notify::MappedAllocation send_buffer;
  notify::MappedAllocation recv_buffer;
  // Strategy::nccl: the send and receive buffers in device memory; the mapped buffers above then
  // hold one byte each.
  kernels::DeviceMemory device_sends;
  kernels::DeviceMemory device_recvs;
  notify::ControlBlock control;
  notify::FlagArray send_ready;    // device -> host: message packed
  notify::FlagArray unpack_ready;  // host -> device: message received
  notify::FlagArray unpack_done;   // device -> host: message unpacked
  notify::FlagArray pack_start;    // host -> device: fields ready (resident kernels)
  kernels::DeviceMemory pack_start_relay;  // device memory: pack_start as block 0 saw it
  kernels::DeviceMemory long_shares_done;    // device memory: stacked long-message counters
  kernels::DeviceMemory unpack_ready_relay;  // device memory: stacked long receives, block 0's copy
  kernels::DeviceMemory short_sends;  // device memory: plan.short_sends_signalled, then the counter
  // device memory: plan.sends_short_first, recvs_short_first, long_send_member
  kernels::DeviceMemory short_first;
  // The piece grid: device -> host, every message of the grid done; device memory: the count
  // of its pieces done, then its start relay (one line each).
  std::optional<notify::FlagArray> pieces_done;
  kernels::DeviceMemory piece_grid_counters;
  // Stream-ordered exchanges: host -> device, the previous epoch's MPI sends completed.
  notify::FlagArray send_buffer_free;
  // device memory, one line each: plan.messages_counted, plan.exchange_done, plan.device_epoch,
  // then plan.control.device_failed, plan.group_failed_epoch
  kernels::DeviceMemory exchange_done;
  // device memory: the FieldSets of start(fields), kMaxFieldSets of them, then plan.field_slot
  kernels::DeviceMemory field_bank;
  notify::MappedAllocation device_times;  // traced flag strategies: the blocks' clock stamps
  // Resident kernels that leave when idle (plan.idle): host -> device, the last start promised;
  // device -> host, each grid's watcher's word; device memory, each grid's last generation that
  // left (one line each).
  notify::FlagArray idle_promised;
  notify::FlagArray idle_watchers;
  kernels::DeviceMemory idle_left;
  kernels::ExchangePlan plan;

 private:
  // The constructor's steps, in the order it runs them (exchange_resources.cpp).
  void point_plan_at_memory(const kernels::FieldSet& fields);
  void order_short_first(const ExchangeOptions& options);
  void choose_long_teams(const ExchangeOptions& options);  // throws ExchangeError (config)
  void gate_short_sends();
  void let_resident_kernels_leave(const ExchangeOptions& options);

  std::vector<kernels::FieldSet> registered_fields_;  // host copy of the bank
  std::uint32_t selected_slot_ = 0;                   // what the device's field slot holds
};

}  // namespace haloflag::halo::detail
