// Internal: the bulk strategies' CPU-to-CPU mailbox over the node (docs/design.md, "The node
// transport"). With those strategies the CPUs sequence the kernels, so each node receive has
// two lines at the start of its receiver's shared segment: `arrived`, which the sender's CPU
// stores once the message is packed into the receiver's buffer, and `unpacked`, which the
// receiver's CPU stores once it has unpacked it. Each holds the last such epoch.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace haloflag::halo::detail {

class NodeSignals {
 public:
  NodeSignals(std::size_t send_count, std::size_t recv_count)
      : send_mailboxes_(send_count), recv_mailboxes_(recv_count) {}

  // Where receive r's mailbox lies in its receiver's segment, and the bytes that the mailboxes
  // of `recv_count` receives take there, rounded up so that a region can follow them.
  static std::int64_t mailbox_offset(std::size_t r);
  static std::int64_t mailbox_bytes(std::size_t recv_count);
  // Set-up: receive r's mailbox in this rank's segment, and send m's in its receiver's, at the
  // offset the receiver gave.
  void open_receive(std::size_t r, std::byte* my_segment);
  void open_send(std::size_t m, std::byte* receiver_segment, std::int64_t offset);

  // Read and written by CPUs. Epochs only grow.
  void announce_packed(std::size_t m, std::uint64_t epoch);  // to the receiver of send m
  bool receiver_unpacked(std::size_t m, std::uint64_t epoch) const;
  bool arrived(std::size_t r, std::uint64_t epoch) const;
  void announce_unpacked(std::size_t r, std::uint64_t epoch);  // to the sender of receive r

 private:
  struct Mailbox {
    std::uint64_t* arrived = nullptr;   // written by the sender's CPU
    std::uint64_t* unpacked = nullptr;  // written by the receiver's CPU
  };

  std::vector<Mailbox> send_mailboxes_;  // the receiver's mailbox of each node send
  std::vector<Mailbox> recv_mailboxes_;  // this rank's mailbox of each node receive
};

}  // namespace haloflag::halo::detail
