// Where the bytes and signals of a message carried by the node transport go (docs/design.md,
// "Node transport memory"). The sender's group writes the message straight into the receiver's
// buffer, mapped into the sender's process, and release-stores the epoch into the receiver's
// arrival flag; the receiver's group polls that flag in its own memory, unpacks, and
// release-stores the epoch into its unpacked flag, which the sender reads before it writes the
// next epoch. Neither CPU takes part. Trivially copyable: the plan points kernels at arrays of
// these.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace haloflag::kernels {

struct NodeSendRoute {
  std::byte* data = nullptr;                // the receiver's buffer for this message; null: MPI
  std::uint64_t* arrival = nullptr;         // the receiver's arrival flag for it
  const std::uint64_t* unpacked = nullptr;  // the receiver's flag: its unpack of it is done
};

struct NodeRecvRoute {
  const std::byte* data = nullptr;  // this rank's buffer for this message; null: MPI
  const std::uint64_t* arrival = nullptr;  // written by the sender
  std::uint64_t* unpacked = nullptr;       // read by the sender
};

static_assert(std::is_trivially_copyable_v<NodeSendRoute>);
static_assert(std::is_trivially_copyable_v<NodeRecvRoute>);

}  // namespace haloflag::kernels
