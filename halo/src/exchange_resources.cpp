#include "exchange_resources.hpp"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "haloflag/halo/errors.hpp"
#include "haloflag/kernels/field_set.hpp"
#include "field_set_check.hpp"
#include "memory_check.hpp"

namespace haloflag::halo::detail {

namespace {

// Flag arrays and allocations hold at least one entry, so a rank without sends or receives
// still has valid views; the kernels never index past the message counts.
std::uint32_t at_least_one(std::size_t count) {
  return static_cast<std::uint32_t>(std::max<std::size_t>(count, 1));
}

kernels::DeviceMemory upload_layouts(notify::Backend backend,
                                     const std::vector<kernels::MessageLayout>& layouts) {
  const std::size_t bytes = sizeof(kernels::MessageLayout) * at_least_one(layouts.size());
  kernels::DeviceMemory memory(backend, bytes);
  memory.copy_from_host(layouts.data(), sizeof(kernels::MessageLayout) * layouts.size());
  return memory;
}

// The indexes of the short layouts in order, then those of the long ones; adds the short count.
void append_short_first(const kernels::ExchangePlan& plan,
                        const std::vector<kernels::MessageLayout>& layouts,
                        std::vector<std::uint32_t>& order, std::uint32_t& short_count) {
  for (const bool long_pass : {false, true}) {
    for (std::size_t m = 0; m < layouts.size(); ++m) {
      if (kernels::is_long(plan, layouts[m]) != long_pass) continue;
      order.push_back(static_cast<std::uint32_t>(m));
      if (!long_pass) ++short_count;
    }
  }
}

// Bytes of a mapped buffer: none needed where the buffers are in device memory (nccl), but an
// allocation holds at least one byte.
std::size_t mapped_bytes(const ExchangeOptions& options, std::int64_t bytes) {
  if (options.strategy == Strategy::nccl) return 1;
  return static_cast<std::size_t>(std::max<std::int64_t>(bytes, 1));
}

// The message buffers are refused before any is allocated when the machine cannot hold them:
// pinned host memory, or for nccl GPU memory.
MessageLayouts buffers_that_fit(MessageLayouts layouts, const ExchangeOptions& options) {
  const std::int64_t bytes = layouts.send_buffer_bytes + layouts.recv_buffer_bytes;
  const std::string what = "the exchange's send and receive buffers (" +
                           std::to_string(layouts.sends.size()) + " sends, " +
                           std::to_string(layouts.recvs.size()) + " receives)";
  if (options.strategy == Strategy::nccl) {
    require_gpu_memory(bytes, what);
  } else {
    require_host_memory(bytes, what + " in pinned host memory");
  }
  return layouts;
}

kernels::DeviceMemory device_buffer(const ExchangeOptions& options, std::int64_t bytes) {
  if (options.strategy != Strategy::nccl) return {};
  return kernels::DeviceMemory(options.backend,
                               static_cast<std::size_t>(std::max<std::int64_t>(bytes, 1)));
}

}  // namespace

ExchangeResources::ExchangeResources(MessageLayouts message_layouts,
                                     const kernels::FieldSet& fields,
                                     const ExchangeOptions& options)
    : layouts(buffers_that_fit(std::move(message_layouts), options)),
      send_layouts(upload_layouts(options.backend, layouts.sends)),
      recv_layouts(upload_layouts(options.backend, layouts.recvs)),
      send_buffer(options.backend, mapped_bytes(options, layouts.send_buffer_bytes)),
      recv_buffer(options.backend, mapped_bytes(options, layouts.recv_buffer_bytes)),
      device_sends(device_buffer(options, layouts.send_buffer_bytes)),
      device_recvs(device_buffer(options, layouts.recv_buffer_bytes)),
      control(options.backend, options.timeout),
      send_ready(control, at_least_one(layouts.sends.size()), notify::FlagWriter::device,
                 "send_ready"),
      unpack_ready(control, at_least_one(layouts.recvs.size()), notify::FlagWriter::host,
                   "unpack_ready"),
      unpack_done(control, at_least_one(layouts.recvs.size()), notify::FlagWriter::device,
                  "unpack_done"),
      pack_start(control, 1, notify::FlagWriter::host, "pack_start"),
      pack_start_relay(options.backend, sizeof(notify::FlagLine)),
      long_shares_done(options.backend,
                       sizeof(std::uint64_t) * (at_least_one(layouts.sends.size()) +
                                                at_least_one(layouts.recvs.size()))),
      unpack_ready_relay(options.backend,
                         sizeof(notify::FlagLine) * at_least_one(layouts.recvs.size())),
      short_sends(options.backend, 2 * sizeof(notify::FlagLine)),
      short_first(options.backend,
                  sizeof(std::uint32_t) * (at_least_one(layouts.sends.size()) +
                                           layouts.recvs.size() + layouts.sends.size())),
      send_buffer_free(control, 1, notify::FlagWriter::host, "send_buffer_free"),
      exchange_done(options.backend, 5 * sizeof(notify::FlagLine)),
      field_bank(options.backend, sizeof(kernels::FieldSet) * kernels::kMaxFieldSets +
                                      sizeof(std::uint32_t)),
      idle_promised(control, 1, notify::FlagWriter::host, "idle_promised"),
      idle_watchers(control, kernels::kResidentGrids, notify::FlagWriter::device,
                    "idle_watchers"),
      idle_left(options.backend, sizeof(notify::FlagLine) * kernels::kResidentGrids) {
  control.set_poll_backoff(options.advanced.poll_backoff);
  // The steps build on each other in this order: the counts and views first (the rest reads
  // them), and the gate's flag array is registered only once the launch options are checked.
  point_plan_at_memory(fields);
  if (options.trace && uses_flags(options.strategy)) {
    const std::uint32_t slots =
        kernels::device_time_slots(plan.send_count, plan.recv_count);
    device_times = notify::MappedAllocation(options.backend, sizeof(std::uint64_t) * slots);
    plan.times = {static_cast<std::uint64_t*>(device_times.device()), plan.send_count};
  }
  order_short_first(options);
  choose_long_teams(options);
  gate_short_sends();
  let_resident_kernels_leave(options);
}

// Strategy::resident with a window: the words its grids and the host settle a leave through
// (haloflag/kernels/idle_exit.hpp). Without them the plan's window stays 0 and no grid leaves.
void ExchangeResources::let_resident_kernels_leave(const ExchangeOptions& options) {
  if (options.strategy != Strategy::resident || options.idle_exit == kIdleExitNever) return;
  plan.idle.window_ns = static_cast<std::uint64_t>(options.idle_exit.count());
  plan.idle.promised = idle_promised.device_view();
  plan.idle.watchers = idle_watchers.device_view();
  plan.idle.left = {static_cast<notify::FlagLine*>(idle_left.data()), kernels::kResidentGrids,
                    control.register_array("idle_left")};
}

// The plan's views of the memory allocated above (device addresses of the mapped memory), and
// the first FieldSet as slot 0 of the field bank.
void ExchangeResources::point_plan_at_memory(const kernels::FieldSet& fields) {
  plan.sends = static_cast<const kernels::MessageLayout*>(send_layouts.data());
  plan.recvs = static_cast<const kernels::MessageLayout*>(recv_layouts.data());
  plan.send_count = static_cast<std::uint32_t>(layouts.sends.size());
  plan.recv_count = static_cast<std::uint32_t>(layouts.recvs.size());
  plan.fields = fields;
  registered_fields_.push_back(fields);
  field_bank.copy_from_host(&fields, sizeof fields);
  plan.field_bank = static_cast<const kernels::FieldSet*>(field_bank.data());
  plan.field_slot = field_slot_word();
  auto* done_lines = static_cast<notify::FlagLine*>(exchange_done.data());
  plan.messages_counted = &done_lines[0].epoch;
  plan.exchange_done = &done_lines[1].epoch;
  plan.device_epoch = &done_lines[2].epoch;
  plan.device_epoch_id = control.register_array("device_epoch");
  // Until the piece grid's transports take some, every send goes over MPI.
  plan.send_buffer_free = send_buffer_free.device_view();
  plan.send_buffer = device_sends.data() != nullptr
                         ? device_send_buffer()
                         : static_cast<std::byte*>(send_buffer.device());
  plan.recv_buffer = device_recvs.data() != nullptr
                         ? device_recv_buffer()
                         : static_cast<const std::byte*>(recv_buffer.device());
  plan.send_ready = send_ready.device_view();
  plan.unpack_ready = unpack_ready.device_view();
  plan.unpack_done = unpack_done.device_view();
  plan.pack_start = pack_start.device_view();
  plan.pack_start_relay = {static_cast<notify::FlagLine*>(pack_start_relay.data()), 1,
                           plan.pack_start.array_id};
  plan.long_send_shares_done = static_cast<std::uint64_t*>(long_shares_done.data());
  plan.long_recv_shares_done = plan.long_send_shares_done + at_least_one(layouts.sends.size());
  plan.unpack_ready_relay = {static_cast<notify::FlagLine*>(unpack_ready_relay.data()),
                             plan.recv_count, plan.unpack_ready.array_id};
  plan.control = control.device_control();
  plan.control.device_failed = &done_lines[3].epoch;
  plan.group_failed_epoch = &done_lines[4].epoch;
}

// The order in which the blocks take the messages: short ones first, so that their flags do
// not wait behind long messages' data, and each long send's place in the team that packs them.
void ExchangeResources::order_short_first(const ExchangeOptions& options) {
  // Resolved by the Exchange from the config's messages (half the largest when not given), so
  // that the pieces of a long message count as short.
  plan.long_message_bytes = options.advanced.long_message_bytes;
  std::vector<std::uint32_t> order;
  append_short_first(plan, layouts.sends, order, plan.short_sends);
  order.resize(at_least_one(layouts.sends.size()));  // the receives' part starts after one entry
  append_short_first(plan, layouts.recvs, order, plan.short_recvs);
  // Then each send's place among the long sends (its member index in the team packing them in
  // turn); short sends get 0 and never read it.
  const std::size_t members_at = order.size();
  order.resize(members_at + layouts.sends.size(), 0);
  for (std::uint32_t i = plan.short_sends; i < plan.send_count; ++i) {
    order[members_at + order[i]] = i - plan.short_sends;
  }
  short_first.copy_from_host(order.data(), sizeof(std::uint32_t) * order.size());
  plan.sends_short_first = static_cast<const std::uint32_t*>(short_first.data());
  plan.recvs_short_first = plan.sends_short_first + at_least_one(layouts.sends.size());
  plan.long_send_member = plan.sends_short_first + members_at;
  plan.long_sends_in_turn = options.advanced.long_sends_in_turn;
}

// The teams of blocks that share a long message; refuses a team of fewer than one block.
void ExchangeResources::choose_long_teams(const ExchangeOptions& options) {
  if (options.advanced.launch.long_receive_blocks < 1) {
    throw ExchangeError(ErrorKind::config, "blocks per long receive must be at least 1 (got " +
                        std::to_string(options.advanced.launch.long_receive_blocks) + ")");
  }
  plan.long_recv_team = static_cast<std::uint32_t>(effective_long_receive_blocks(options));
  if (options.advanced.launch.long_send_blocks < 1) {
    throw ExchangeError(ErrorKind::config, "blocks per long send must be at least 1 (got " +
                        std::to_string(options.advanced.launch.long_send_blocks) + ")");
  }
  plan.long_send_team = runs_helper_blocks(options)
                            ? static_cast<std::uint32_t>(options.advanced.launch.long_send_blocks)
                            : 1;
}

// The gate that holds the long sends until the short ones are signalled.
void ExchangeResources::gate_short_sends() {
  // Without long sends there is nothing to put behind the short ones.
  plan.short_send_count = plan.short_sends == plan.send_count ? 0 : plan.short_sends;
  auto* short_lines = static_cast<notify::FlagLine*>(short_sends.data());
  plan.short_sends_signalled = {short_lines, 1, control.register_array("short_sends_signalled")};
  plan.short_sends_counted = &short_lines[1].epoch;
}

void ExchangeResources::count_message_blocks(const std::vector<bool>& sends_in_pieces,
                                              const std::vector<bool>& recvs_in_pieces) {
  std::uint32_t mpi_sends = 0;
  std::uint32_t mpi_recvs = 0;
  std::uint32_t short_mpi_sends = 0;
  bool long_mpi_send = false;
  for (std::uint32_t m = 0; m < plan.send_count; ++m) {
    if (sends_in_pieces[m]) continue;
    ++mpi_sends;
    const bool is_long = kernels::is_long(plan, layouts.sends[m]);
    long_mpi_send = long_mpi_send || is_long;
    if (!is_long) ++short_mpi_sends;
  }
  for (std::uint32_t r = 0; r < plan.recv_count; ++r) mpi_recvs += recvs_in_pieces[r] ? 0 : 1;
  plan.message_blocks = mpi_sends + mpi_recvs > 0;
  plan.done_units = mpi_sends + mpi_recvs + (plan.pieces.any() ? 1 : 0);
  // The short MPI sends go first so that their flags do not cross PCIe behind the long sends'
  // data; the piece grid's sends are not in the gate, so without a long MPI send there is none.
  plan.short_send_count = long_mpi_send ? short_mpi_sends : 0;
  // The piece grid's sends go into the receivers' memory, whose flow control is the GPUs' own.
  if (plan.pieces.any() && mpi_sends == 0) plan.send_buffer_free.count = 0;
}

// The piece grid's counters and done flag, made for the first transport that moves pieces.
void ExchangeResources::add_to_piece_grid(std::uint32_t send_pieces, std::uint32_t recv_pieces) {
  if (!pieces_done) {
    // Allocated like the send layouts, on the Exchange's backend.
    piece_grid_counters =
        kernels::DeviceMemory(send_layouts.backend(), 2 * sizeof(notify::FlagLine));
    auto* lines = static_cast<notify::FlagLine*>(piece_grid_counters.data());
    plan.pieces.work_done = &lines[0].epoch;
    plan.pieces.start_relay = &lines[1].epoch;
    pieces_done.emplace(control, 1, notify::FlagWriter::device, "pieces_done");
    plan.pieces.done = pieces_done->device_view();
  }
  plan.pieces.send_pieces += send_pieces;
  plan.pieces.recv_pieces += recv_pieces;
}

std::uint32_t* ExchangeResources::field_slot_word() const {
  auto* bank = static_cast<std::byte*>(field_bank.data());
  return reinterpret_cast<std::uint32_t*>(bank + sizeof(kernels::FieldSet) * kernels::kMaxFieldSets);
}

std::optional<std::uint32_t> ExchangeResources::registered_slot(
    const kernels::FieldSet& fields) const {
  const auto same = [&](const kernels::FieldSet& known) { return same_field_set(known, fields); };
  const auto found = std::find_if(registered_fields_.begin(), registered_fields_.end(), same);
  if (found == registered_fields_.end()) return std::nullopt;
  return static_cast<std::uint32_t>(found - registered_fields_.begin());
}

std::uint32_t ExchangeResources::field_slot_of(const kernels::FieldSet& fields) {
  if (const std::optional<std::uint32_t> known = registered_slot(fields)) return *known;
  const kernels::FieldSet& first = registered_fields_.front();
  if (fields.variable_count != first.variable_count) {
    throw ConfigError("start(fields): the fields have " + std::to_string(fields.variable_count) +
                      " variables, the Exchange was made for " +
                      std::to_string(first.variable_count));
  }
  if (registered_fields_.size() == static_cast<std::size_t>(kernels::kMaxFieldSets)) {
    throw ConfigError("start(fields): one Exchange serves at most " +
                      std::to_string(kernels::kMaxFieldSets) + " different FieldSets");
  }
  // A new slot: no kernel reads it before a start names it.
  const auto slot = static_cast<std::uint32_t>(registered_fields_.size());
  field_bank.copy_from_host(&fields, sizeof fields, sizeof(kernels::FieldSet) * slot);
  registered_fields_.push_back(fields);
  return slot;
}

void ExchangeResources::select_fields(std::uint32_t slot) {
  if (slot == selected_slot_) return;
  field_bank.copy_from_host(&slot, sizeof slot, sizeof(kernels::FieldSet) * kernels::kMaxFieldSets);
  selected_slot_ = slot;
}

}  // namespace haloflag::halo::detail
