// Internal: the memory the node's ranks share (docs/design.md, "The node transport", and "Node
// transport memory"): this rank's device region with its IPC handle and the mappings of its node
// peers' (GPU backends), the FieldSets exported for direct placement and the peers' mapped here,
// and the segments of host memory shared by the node's processes, registered for the GPU where
// the regions fall back to them. Each sharing step is collective over the node; a handle that
// does not open is reported, not thrown, and its pair goes through pinned host memory.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "haloflag/halo/exchange_options.hpp"
#include "haloflag/kernels/device_memory.hpp"
#include "haloflag/kernels/field_set.hpp"
#include "haloflag/kernels/peer_memory.hpp"
#include "transports/node/node_discovery.hpp"
#include "transports/node/shared_segments.hpp"

namespace haloflag::halo::detail {

class NodeMemorySharing {
 public:
  // What the node's ranks learnt from each other's IPC handles (GPU backends).
  struct DeviceSharing {
    bool exported = false;  // this rank's device region has a handle
    std::string export_failure;
    std::map<int, std::string> refused;  // peer -> why its handle did not open here
    // [q * node size + p]: node rank q opened node rank p's handle, or never needed to.
    std::vector<std::int32_t> opened_by;
  };

  // `node`: joined before any step below runs.
  NodeMemorySharing(const NodeDiscovery& node, std::chrono::nanoseconds timeout)
      : node_(node), timeout_(timeout) {}
  NodeMemorySharing(const NodeMemorySharing&) = delete;
  NodeMemorySharing& operator=(const NodeMemorySharing&) = delete;

  // Collective over the node on GPU backends: decides where this rank's region of `region_bytes`
  // lives, for its node peers `node_peers`.
  void place_region(const std::vector<int>& node_peers, const ExchangeOptions& options,
                    std::int64_t region_bytes);
  // GPU backends with mapping automatic: the region and the fields are offered through IPC.
  bool tries_device() const { return try_device_; }
  // The region is in device memory (else in this rank's shared segment, where it has one).
  bool in_device() const { return in_device_; }
  bool host_region_needed() const { return host_region_needed_; }
  const DeviceSharing& device_sharing() const { return sharing_; }

  // Collective over the node: exports this rank's FieldSet (when `export_fields`) and maps the
  // fields of the peers this rank sends to; returns, per node peer, the mapped FieldSet
  // (variable_count 0 where none) and records why a mapping failed in `why_not`.
  std::map<int, kernels::FieldSet> share_fields(const kernels::FieldSet& fields,
                                                const std::vector<int>& send_peers,
                                                bool export_fields,
                                                std::map<int, std::string>& why_not);

  // Collective over the node: the shared segments, each the node's largest `my_mailbox_bytes`
  // (the mailbox lines), then this rank's region where host_region_needed().
  void create_segments(std::int64_t my_mailbox_bytes, std::int64_t region_bytes);
  std::byte* segment(int node_rank) const { return segments_->segment(node_rank); }
  // Host addresses in the shared segments become device addresses through registrations
  // (`needed`: some region of the node is in them, on a GPU backend). Returns false, with the
  // problem kept in `problems`, when the GPU refuses them.
  bool register_segments(bool needed, std::vector<std::string>& problems);
  // The region of node rank q as this rank's GPU reaches it (`peer_in_device`: q said its region
  // is in device memory).
  std::byte* region_of(int q, bool peer_in_device) const;
  // A word of this rank's region as the CPU reads it, `offset` bytes in; 0 where there is none.
  std::uint64_t read_word(std::int64_t offset) const;

  // Tear-down, in NodeTransport's order: close this rank's mappings of its peers' memory, then
  // either free this rank's device region (once the node's ranks have closed theirs) or keep
  // it allocated (a peer may still map it).
  void close_mappings();
  void free_region() { device_region_.reset(); }
  void keep_region() { (void)device_region_.release(); }

 private:
  // Collective over the node: allocates and exports this rank's device region (when
  // `export_region`), and opens the handles of this rank's node peers (when `open_handles`); a
  // handle that will not open is reported, not thrown.
  DeviceSharing share_device_memory(const std::vector<int>& node_peers, notify::Backend backend,
                                    bool export_region, std::int64_t region_bytes,
                                    bool open_handles);

  const NodeDiscovery& node_;
  std::chrono::nanoseconds timeout_;
  bool try_device_ = false;
  DeviceSharing sharing_;
  bool in_device_ = false;
  bool host_region_needed_ = false;
  std::int64_t mailbox_bytes_ = 0;  // where each segment's region starts
  std::unique_ptr<kernels::DeviceMemory> device_region_;
  std::vector<kernels::IpcMapping> mappings_;        // by node rank; empty where not opened
  std::vector<kernels::IpcMapping> field_mappings_;  // the peers' field allocations
  std::unique_ptr<SharedSegments> segments_;
  std::vector<kernels::HostRegistration> registrations_;  // by node rank, where used
  std::byte* host_region_ = nullptr;  // this rank's region in its shared segment, when used
};

}  // namespace haloflag::halo::detail
