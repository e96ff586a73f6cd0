#include "transports/node/node_signals.hpp"

#include "haloflag/notify/flag_line.hpp"
#include "haloflag/notify/system_atomics.hpp"
#include "transports/node/node_region_layout.hpp"

namespace haloflag::halo::detail {
namespace {

constexpr std::size_t kLine = notify::kFlagLineBytes;

}  // namespace

std::int64_t NodeSignals::mailbox_offset(std::size_t r) {
  return static_cast<std::int64_t>(2 * kLine * r);
}

std::int64_t NodeSignals::mailbox_bytes(std::size_t recv_count) {
  return aligned_for_data(static_cast<std::int64_t>(2 * kLine * recv_count));
}

void NodeSignals::open_receive(std::size_t r, std::byte* my_segment) {
  std::byte* line = my_segment + mailbox_offset(r);
  recv_mailboxes_[r] = {reinterpret_cast<std::uint64_t*>(line),
                        reinterpret_cast<std::uint64_t*>(line + kLine)};
}

void NodeSignals::open_send(std::size_t m, std::byte* receiver_segment, std::int64_t offset) {
  send_mailboxes_[m] = {reinterpret_cast<std::uint64_t*>(receiver_segment + offset),
                        reinterpret_cast<std::uint64_t*>(receiver_segment + offset + kLine)};
}

void NodeSignals::announce_packed(std::size_t m, std::uint64_t epoch) {
  notify::store_release_system(send_mailboxes_[m].arrived, epoch);
}

bool NodeSignals::receiver_unpacked(std::size_t m, std::uint64_t epoch) const {
  return notify::load_acquire_system(send_mailboxes_[m].unpacked) >= epoch;
}

bool NodeSignals::arrived(std::size_t r, std::uint64_t epoch) const {
  return notify::load_acquire_system(recv_mailboxes_[r].arrived) >= epoch;
}

void NodeSignals::announce_unpacked(std::size_t r, std::uint64_t epoch) {
  notify::store_release_system(recv_mailboxes_[r].unpacked, epoch);
}

}  // namespace haloflag::halo::detail
