// Internal: the node transport of one Exchange (docs/design.md, "Node transport memory"). At set-up
// it sorts the peers into node and mpi ones, agrees on that with each node peer, and maps the
// memory each node message lands in:
//   - device: the receiver's device memory, shared through an IPC handle (GPU backends);
//   - pinned host: the receiver's segment of host memory shared by the node's processes,
//     registered as pinned (GPU backends, where IPC is refused, or when forced);
//   - shared memory: the same segments on the host backend.
// Each node receive has a buffer, an arrival flag (the sender's GPU writes it) and an unpacked
// flag (the sender's GPU reads it before writing the next epoch): the kernels' routes. For the
// bulk strategies, whose CPU sequences the kernels, the segments also hold a CPU-to-CPU mailbox
// per node receive (arrived, unpacked).
#pragma once

#include <mpi.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "haloflag/halo/exchange_config.hpp"
#include "haloflag/halo/exchange_options.hpp"
#include "haloflag/halo/transport.hpp"
#include "haloflag/kernels/device_memory.hpp"
#include "haloflag/kernels/node_routes.hpp"
#include "haloflag/kernels/peer_memory.hpp"
#include "haloflag/notify/control_block.hpp"
#include "message_names.hpp"
#include "shared_segments.hpp"

namespace haloflag::halo::detail {

class NodeTransport {
 public:
  // Collective over `comm` (every rank calls it, also with Transport::mpi, so that peers can
  // check they agree). A choice that cannot be kept (a node peer off the node, peers that chose
  // differently for each other, host memory the GPU cannot register) is kept for
  // throw_if_unusable(), so that every rank has run every collective step and holds a transport
  // to tear down alike. A failed MPI call throws ExchangeError at once.
  NodeTransport(MPI_Comm comm, const RankMessages& messages, const ExchangeOptions& options,
                notify::ControlBlock& control, const MessageNames& names);
  // Throws ConfigError listing every problem the set-up found.
  void throw_if_unusable() const;
  // Closes this rank's mappings of its peers' memory, waits (at most the timeout) until every
  // rank of the node has closed its own, then frees this rank's memory. When a peer does not
  // answer in time the memory is left allocated: it may still be mapped by that peer.
  ~NodeTransport();
  NodeTransport(const NodeTransport&) = delete;
  NodeTransport& operator=(const NodeTransport&) = delete;

  bool node_send(std::size_t m) const { return send_routes_[m].data != nullptr; }
  bool node_recv(std::size_t r) const { return recv_routes_[r].data != nullptr; }
  bool any() const { return node_sends_ + node_recvs_ > 0; }
  std::size_t node_send_count() const { return node_sends_; }
  std::size_t node_recv_count() const { return node_recvs_; }

  // The kernels' routes: device addresses on GPU backends (one entry per message, null data for
  // an MPI message).
  const std::vector<kernels::NodeSendRoute>& send_routes() const { return send_routes_; }
  const std::vector<kernels::NodeRecvRoute>& recv_routes() const { return recv_routes_; }
  std::uint32_t arrival_id() const { return arrival_id_; }
  std::uint32_t peer_unpacked_id() const { return peer_unpacked_id_; }

  const std::vector<PeerTransport>& peers() const { return peers_; }
  // Ranks of this rank's shared-memory node bound to its GPU, itself included (GPU backends).
  int gpu_sharers() const { return gpu_sharers_; }

  // The bulk strategies' mailbox, read and written by CPUs. Epochs only grow.
  void announce_packed(std::size_t m, std::uint64_t epoch);  // to the receiver of send m
  bool receiver_unpacked(std::size_t m, std::uint64_t epoch) const;
  bool arrived(std::size_t r, std::uint64_t epoch) const;
  void announce_unpacked(std::size_t r, std::uint64_t epoch);  // to the sender of receive r

 private:
  void set_up(MPI_Comm comm, const RankMessages& messages, const ExchangeOptions& options,
              const MessageNames& names);

  // What the node's ranks learnt from each other's IPC handles (GPU backends).
  struct DeviceSharing {
    bool exported = false;  // this rank's device region has a handle
    std::string export_failure;
    std::map<int, std::string> refused;  // peer -> why its handle did not open here
    // [q * node size + p]: node rank q opened node rank p's handle, or never needed to.
    std::vector<std::int32_t> opened_by;
  };
  // Collective over the node: allocates and exports this rank's device region (when
  // `export_region`), and opens the handles of the peers this rank sends to (when
  // `open_handles`); a handle that will not open is reported, not thrown.
  DeviceSharing share_device_memory(const RankMessages& messages,
                                    const std::map<int, bool>& by_node,
                                    const std::map<int, int>& node_rank_of,
                                    const std::vector<int>& node_members, int rank,
                                    notify::Backend backend, bool export_region,
                                    std::int64_t region_bytes, bool open_handles);

  struct Mailbox {
    std::uint64_t* arrived = nullptr;   // written by the sender's CPU
    std::uint64_t* unpacked = nullptr;  // written by the receiver's CPU
  };

  MPI_Comm node_comm_ = MPI_COMM_NULL;
  std::chrono::nanoseconds timeout_;
  std::unique_ptr<kernels::DeviceMemory> device_region_;
  std::vector<kernels::IpcMapping> mappings_;  // by node rank; empty where not opened
  std::unique_ptr<SharedSegments> segments_;
  std::vector<kernels::HostRegistration> registrations_;  // by node rank, where used
  std::vector<kernels::NodeSendRoute> send_routes_;
  std::vector<kernels::NodeRecvRoute> recv_routes_;
  std::vector<Mailbox> send_mailboxes_;  // the receiver's mailbox of each node send
  std::vector<Mailbox> recv_mailboxes_;  // this rank's mailbox of each node receive
  std::size_t node_sends_ = 0;
  std::size_t node_recvs_ = 0;
  std::uint32_t arrival_id_ = 0;
  std::uint32_t peer_unpacked_id_ = 0;
  std::vector<PeerTransport> peers_;
  std::vector<std::string> problems_;
  int gpu_sharers_ = 1;
};

}  // namespace haloflag::halo::detail
