#include "node_transport.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstring>
#include <map>
#include <optional>
#include <set>
#include <thread>
#include <utility>

#include "haloflag/halo/errors.hpp"
#include "haloflag/halo/exchange.hpp"
#include "haloflag/kernels/kernel_runner.hpp"
#include "haloflag/notify/flag_line.hpp"
#include "haloflag/notify/gpu_device.hpp"
#include "haloflag/notify/system_atomics.hpp"
#include "deadline_collectives.hpp"

namespace haloflag::halo::detail {
namespace {

using Clock = std::chrono::steady_clock;
constexpr std::size_t kLine = notify::kFlagLineBytes;
constexpr std::int64_t kDataAlignment = 256;

// One receive of a rank, as it tells the sender at set-up. Offsets are bytes from the start of
// the receiver's device region (in_device) or of its shared segment.
struct RouteEntry {
  std::int32_t tag = 0;
  std::int32_t node = 0;       // the receiver carries this peer's messages over the node transport
  std::int32_t in_device = 0;  // the buffer and flags are in the receiver's device memory
  std::int32_t unused = 0;
  std::int64_t bytes = 0;
  std::int64_t data_offset = 0;
  std::int64_t flags_offset = 0;    // the arrival line; the unpacked line follows
  std::int64_t mailbox_offset = 0;  // in the shared segment: arrived line; unpacked line follows
};

struct HandleEntry {
  kernels::IpcHandle handle;
  std::int32_t valid = 0;
  std::int32_t unused = 0;
};

// The ranks of `shared` (one shared-memory node) bound to the same GPU as this one.
int count_gpu_sharers(MPI_Comm shared, std::chrono::nanoseconds timeout) {
  struct BusId {
    std::array<char, 32> text{};
  };
  BusId mine;
  const std::string id = notify::gpu_device_info(notify::current_gpu()).pci_bus_id;
  std::snprintf(mine.text.data(), mine.text.size(), "%s", id.c_str());
  int sharers = 0;
  for (const BusId& other : all_gather(mine, shared, timeout, "gathering the ranks' GPUs")) {
    if (std::strcmp(other.text.data(), mine.text.data()) == 0) ++sharers;
  }
  return sharers;
}

MPI_Comm split_node(MPI_Comm shared, int rank, int node_size) {
  if (node_size <= 0) return shared;
  MPI_Comm part = MPI_COMM_NULL;
  const int status = MPI_Comm_split(shared, rank / node_size, rank, &part);
  MPI_Comm_free(&shared);
  check_node_step(status, "MPI_Comm_split by node size");
  return part;
}

std::string ranks_text(const std::vector<int>& ranks) {
  std::string text;
  for (int r : ranks) text += (text.empty() ? "" : ", ") + std::to_string(r);
  return text;
}

std::int64_t aligned(std::int64_t value, std::int64_t alignment) {
  return (value + alignment - 1) / alignment * alignment;
}

}  // namespace

NodeTransport::NodeTransport(MPI_Comm comm, const RankMessages& messages,
                             const ExchangeOptions& options, notify::ControlBlock& control,
                             const MessageNames& names)
    : timeout_(options.timeout),
      send_routes_(messages.sends.size()),
      recv_routes_(messages.recvs.size()),
      send_mailboxes_(messages.sends.size()),
      recv_mailboxes_(messages.recvs.size()) {
  arrival_id_ = control.register_array("node_arrival");
  peer_unpacked_id_ = control.register_array("peer_unpacked");
  try {
    set_up(comm, messages, options, names);
  } catch (...) {
    // The node's other ranks may be anywhere in the set-up: free nothing they might map.
    (void)device_region_.release();
    throw;
  }
}

void NodeTransport::throw_if_unusable() const {
  if (!problems_.empty()) throw ConfigError(problems_);
}

void NodeTransport::set_up(MPI_Comm comm, const RankMessages& messages,
                           const ExchangeOptions& options, const MessageNames& names) {
  const bool gpu = options.backend != notify::Backend::host;
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  std::vector<std::string>& problems = problems_;

  // Who is on this rank's node, and who shares its GPU.
  MPI_Comm shared = MPI_COMM_NULL;
  check_node_step(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &shared),
                  "MPI_Comm_split_type(MPI_COMM_TYPE_SHARED)");
  if (gpu) gpu_sharers_ = count_gpu_sharers(shared, timeout_);
  node_comm_ = split_node(shared, rank, options.node_size);
  int node_rank = 0;
  int node_size = 0;
  MPI_Comm_rank(node_comm_, &node_rank);
  MPI_Comm_size(node_comm_, &node_size);
  const std::vector<int> node_members =
      all_gather(rank, node_comm_, timeout_, "gathering the node's ranks");
  std::map<int, int> node_rank_of;  // comm rank -> node rank
  for (int q = 0; q < node_size; ++q) node_rank_of[node_members[static_cast<std::size_t>(q)]] = q;

  // This rank's choice for each peer.
  std::set<int> peers;
  for (const Message& m : messages.sends) peers.insert(m.peer);
  for (const Message& m : messages.recvs) peers.insert(m.peer);
  std::map<int, bool> by_node;  // peer -> carried by the node transport
  for (int peer : peers) {
    const bool on_node = node_rank_of.contains(peer);
    if (options.transport == Transport::node && !on_node) {
      problems.push_back("transport node: peer " + std::to_string(peer) +
                         " is not on this rank's node (ranks " + ranks_text(node_members) +
                         "); use transport auto to reach it over MPI");
    }
    by_node[peer] = on_node && options.transport != Transport::mpi;
  }

  // Where this rank's node receives live: flags first (two lines each), then the data. The
  // same offsets serve the device region and the shared segment's region.
  std::vector<std::int64_t> flags_offset(messages.recvs.size(), -1);
  std::vector<std::int64_t> data_offset(messages.recvs.size(), -1);
  std::int64_t flag_bytes = 0;
  for (std::size_t r = 0; r < messages.recvs.size(); ++r) {
    if (!by_node[messages.recvs[r].peer]) continue;
    flags_offset[r] = flag_bytes;
    flag_bytes += static_cast<std::int64_t>(2 * kLine);
  }
  std::int64_t region_bytes = aligned(flag_bytes, kDataAlignment);
  for (std::size_t r = 0; r < messages.recvs.size(); ++r) {
    if (flags_offset[r] < 0) continue;
    data_offset[r] = region_bytes;
    region_bytes = aligned(region_bytes + messages.recvs[r].bytes, kDataAlignment);
  }
  const bool has_node_recvs = flag_bytes > 0;

  // GPU: the device region, its IPC handle, and the handles of the peers this rank sends to.
  const bool try_device = gpu && options.node_mapping == NodeMapping::automatic;
  DeviceSharing sharing;
  if (gpu) {
    sharing = share_device_memory(messages, by_node, node_rank_of, node_members, rank,
                                  options.backend, try_device && has_node_recvs, region_bytes,
                                  try_device);
  }
  const bool exported = sharing.exported;
  const std::string& export_failure = sharing.export_failure;
  const std::map<int, std::string>& refused = sharing.refused;
  const auto opened_by = [&](int q, int p) {
    return sharing.opened_by.empty() ||
           sharing.opened_by[static_cast<std::size_t>(q * node_size + p)] != 0;
  };
  // A receive lands in device memory when its sender could map it (itself, for a self-peer).
  std::vector<bool> in_device(messages.recvs.size(), false);
  bool host_region_needed = false;
  for (std::size_t r = 0; r < messages.recvs.size(); ++r) {
    if (flags_offset[r] < 0) continue;
    const int peer = messages.recvs[r].peer;
    const bool mapped = peer == rank || opened_by(node_rank_of[peer], node_rank);
    in_device[r] = try_device && exported && mapped;
    if (!in_device[r]) host_region_needed = true;
  }

  // The shared segment: this rank's mailbox lines, then its region where some receive needs it
  // there.
  const std::int64_t mailbox_bytes =
      aligned(static_cast<std::int64_t>(2 * kLine * messages.recvs.size()), kDataAlignment);
  const std::int64_t segment_bytes = mailbox_bytes + (host_region_needed ? region_bytes : 0);
  segments_ = std::make_unique<SharedSegments>(node_comm_, static_cast<std::size_t>(segment_bytes),
                                               timeout_);
  std::byte* my_segment = segments_->segment(node_rank);

  // Tell each sender of the node where its messages to this rank go.
  std::vector<std::vector<RouteEntry>> outgoing(static_cast<std::size_t>(node_size));
  for (std::size_t r = 0; r < messages.recvs.size(); ++r) {
    const Message& m = messages.recvs[r];
    const auto found = node_rank_of.find(m.peer);
    if (found == node_rank_of.end()) continue;
    RouteEntry entry;
    entry.tag = m.tag;
    entry.node = by_node[m.peer] ? 1 : 0;
    entry.bytes = m.bytes;
    entry.mailbox_offset = static_cast<std::int64_t>(2 * kLine * r);
    if (entry.node) {
      entry.in_device = in_device[r] ? 1 : 0;
      const std::int64_t base = in_device[r] ? 0 : mailbox_bytes;
      entry.data_offset = base + data_offset[r];
      entry.flags_offset = base + flags_offset[r];
    }
    outgoing[static_cast<std::size_t>(found->second)].push_back(entry);
  }
  const std::vector<std::vector<RouteEntry>> incoming =
      all_to_all(outgoing, node_comm_, timeout_, "exchanging routes");

  // Host addresses in the shared segments become device addresses through registrations.
  const bool host_path_used =
      gpu && (host_region_needed ||
              std::any_of(incoming.begin(), incoming.end(), [](const auto& entries) {
                return std::any_of(entries.begin(), entries.end(), [](const RouteEntry& e) {
                  return e.node && !e.in_device;
                });
              }));
  if (host_path_used) {
    try {
      for (int q = 0; q < node_size; ++q) {
        registrations_.emplace_back(segments_->segment(q), segments_->bytes(q));
      }
    } catch (const std::exception& error) {
      problems.push_back(std::string("the node's shared memory cannot be registered for the "
                                     "GPU, so the pinned-host fallback is unavailable: ") +
                         error.what());
      return;
    }
  }
  const auto device_view = [&](int q, std::byte* host) -> std::byte* {
    if (!gpu) return host;
    return static_cast<std::byte*>(
        registrations_[static_cast<std::size_t>(q)].device_address(host));
  };

  // This rank's receives.
  for (std::size_t r = 0; r < messages.recvs.size(); ++r) {
    const Message& m = messages.recvs[r];
    if (node_rank_of.contains(m.peer)) {
      std::byte* line = my_segment + 2 * kLine * r;
      recv_mailboxes_[r] = {reinterpret_cast<std::uint64_t*>(line),
                            reinterpret_cast<std::uint64_t*>(line + kLine)};
    }
    if (flags_offset[r] < 0) continue;
    std::byte* base = in_device[r] ? static_cast<std::byte*>(device_region_->data())
                                   : device_view(node_rank, my_segment + mailbox_bytes);
    recv_routes_[r] = {base + data_offset[r],
                       reinterpret_cast<const std::uint64_t*>(base + flags_offset[r]),
                       reinterpret_cast<std::uint64_t*>(base + flags_offset[r] + kLine)};
    ++node_recvs_;
  }
  // This rank's sends, matched by tag with what their receivers said.
  for (std::size_t m = 0; m < messages.sends.size(); ++m) {
    const Message& send = messages.sends[m];
    const auto found = node_rank_of.find(send.peer);
    if (found == node_rank_of.end()) continue;
    const int q = found->second;
    const RouteEntry* entry = nullptr;
    for (const RouteEntry& listed : incoming[static_cast<std::size_t>(q)]) {
      if (listed.tag == send.tag) entry = &listed;
    }
    if (entry == nullptr) {
      problems.push_back(names.send(m) + ": peer " + std::to_string(send.peer) +
                         " lists no such receive for the node transport");
      continue;
    }
    if ((entry->node != 0) != by_node[send.peer]) {
      problems.push_back("peers disagree on the transport: this rank carries its messages with peer " +
                         std::to_string(send.peer) + " over " +
                         (by_node[send.peer] ? "node" : "mpi") + ", peer " +
                         std::to_string(send.peer) + " over " + (entry->node ? "node" : "mpi") +
                         " (" + names.send(m) + "); give both the same ExchangeOptions::transport "
                         "and node_size");
      continue;
    }
    if (!entry->node) continue;
    std::byte* segment = segments_->segment(q);
    send_mailboxes_[m] = {reinterpret_cast<std::uint64_t*>(segment + entry->mailbox_offset),
                          reinterpret_cast<std::uint64_t*>(segment + entry->mailbox_offset + kLine)};
    std::byte* base = nullptr;
    if (entry->in_device) {
      base = send.peer == rank ? static_cast<std::byte*>(device_region_->data())
                               : static_cast<std::byte*>(mappings_[static_cast<std::size_t>(q)].data());
    } else {
      base = device_view(q, segment);
    }
    if (base == nullptr) {
      problems.push_back(names.send(m) + ": peer " + std::to_string(send.peer) +
                         "'s device memory is not mapped in this rank");
      continue;
    }
    send_routes_[m] = {base + entry->data_offset,
                       reinterpret_cast<std::uint64_t*>(base + entry->flags_offset),
                       reinterpret_cast<const std::uint64_t*>(base + entry->flags_offset + kLine)};
    ++node_sends_;
  }

  for (int peer : peers) {
    PeerTransport described{peer, by_node[peer] ? Transport::node : Transport::mpi, "mpi"};
    if (by_node[peer]) {
      if (!gpu) {
        described.path = "shared memory";
      } else if (peer == rank) {
        described.path = try_device && exported ? "device, self" : "pinned host, self";
      } else if (const auto why = refused.find(peer); why != refused.end()) {
        described.path = "pinned host: " + why->second;
      } else {
        described.path = "device (IPC)";
      }
      if (!export_failure.empty()) described.path += "; this rank's handle: " + export_failure;
    }
    peers_.push_back(described);
  }
}

NodeTransport::~NodeTransport() {
  mappings_.clear();
  registrations_.clear();
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized || node_comm_ == MPI_COMM_NULL) {
    (void)device_region_.release();  // nobody can be asked: never free what a peer may map
    return;
  }
  try {
    barrier_with_deadline(node_comm_, timeout_, "the barrier before freeing node memory");
  } catch (const std::exception& error) {
    // A peer that does not answer may still map this rank's device memory: keep it.
    std::fprintf(stderr, "%s; this rank's node memory is left allocated\n", error.what());
    (void)device_region_.release();
    return;
  }
  device_region_.reset();
  MPI_Comm_free(&node_comm_);
}

NodeTransport::DeviceSharing NodeTransport::share_device_memory(
    const RankMessages& messages, const std::map<int, bool>& by_node,
    const std::map<int, int>& node_rank_of, const std::vector<int>& node_members, int rank,
    notify::Backend backend, bool export_region, std::int64_t region_bytes, bool open_handles) {
  const auto node_size = static_cast<int>(node_members.size());
  DeviceSharing sharing;
  HandleEntry mine;
  if (export_region) {
    try {
      device_region_ = std::make_unique<kernels::DeviceMemory>(
          backend, static_cast<std::size_t>(region_bytes));
      mine.handle = kernels::export_ipc_handle(device_region_->data());
      mine.valid = 1;
      sharing.exported = true;
    } catch (const std::exception& error) {
      sharing.export_failure = error.what();
    }
  }
  const std::vector<HandleEntry> handles =
      all_gather(mine, node_comm_, timeout_, "exchanging IPC handles");
  // Only the handles of peers this rank sends to over the node transport are opened.
  std::set<int> targets;
  for (const Message& m : messages.sends) {
    if (by_node.at(m.peer) && m.peer != rank) targets.insert(node_rank_of.at(m.peer));
  }
  std::vector<std::int32_t> opened(static_cast<std::size_t>(node_size), 1);
  mappings_.resize(static_cast<std::size_t>(node_size));
  for (int q : targets) {
    const int peer = node_members[static_cast<std::size_t>(q)];
    const HandleEntry& entry = handles[static_cast<std::size_t>(q)];
    std::string why;
    if (!open_handles) {
      why = "host mapping forced";
    } else if (!entry.valid) {
      why = "peer " + std::to_string(peer) + " has no IPC handle to give";
    } else {
      try {
        mappings_[static_cast<std::size_t>(q)] = kernels::IpcMapping(entry.handle);
      } catch (const std::exception& error) {
        why = error.what();
        std::fprintf(stderr,
                     "rank %d: node transport: the IPC handle of peer %d did not open (%s); "
                     "its messages go through pinned host memory\n",
                     rank, peer, error.what());
      }
    }
    if (!why.empty()) {
      opened[static_cast<std::size_t>(q)] = 0;
      sharing.refused[peer] = why;
    }
  }
  sharing.opened_by.assign(static_cast<std::size_t>(node_size * node_size), 1);
  MPI_Request request = MPI_REQUEST_NULL;
  check_node_step(MPI_Iallgather(opened.data(), node_size, MPI_INT32_T, sharing.opened_by.data(),
                                 node_size, MPI_INT32_T, node_comm_, &request),
                  "gathering which IPC handles opened");
  wait_with_deadline(request, timeout_, "gathering which IPC handles opened");
  return sharing;
}

void NodeTransport::announce_packed(std::size_t m, std::uint64_t epoch) {
  notify::store_release_system(send_mailboxes_[m].arrived, epoch);
}

bool NodeTransport::receiver_unpacked(std::size_t m, std::uint64_t epoch) const {
  return notify::load_acquire_system(send_mailboxes_[m].unpacked) >= epoch;
}

bool NodeTransport::arrived(std::size_t r, std::uint64_t epoch) const {
  return notify::load_acquire_system(recv_mailboxes_[r].arrived) >= epoch;
}

void NodeTransport::announce_unpacked(std::size_t r, std::uint64_t epoch) {
  notify::store_release_system(recv_mailboxes_[r].unpacked, epoch);
}

}  // namespace haloflag::halo::detail
