// Internal: which peers this rank's node transport carries, and the layout of this rank's region
// for them (docs/design.md, "Node transport memory"): two lines per node peer for the words the
// peer writes (its arrival, then its ghosts_free), then a buffer per node receive. With it, which
// receives come through the buffer even where their sender maps the ghost cells, and which peers
// send in lines. The same offsets serve the device region and the shared segment's region.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "transports/node/node_discovery.hpp"
#include "transports/node/node_set_up_inputs.hpp"

namespace haloflag::halo::detail {

// Every buffer of a region starts on a multiple of this, and so does each region after its
// segment's mailbox lines.
inline constexpr std::int64_t kNodeDataAlignment = 256;
inline std::int64_t aligned_for_data(std::int64_t bytes) {
  return (bytes + kNodeDataAlignment - 1) / kNodeDataAlignment * kNodeDataAlignment;
}

class NodeRegionLayout {
 public:
  // Set-up steps, in this order. This rank's choice for each peer: node or MPI. A peer that
  // transport node cannot reach is a problem, kept in `problems`.
  void choose_peers(const NodeSetUpInputs& in, const NodeDiscovery& node,
                    std::vector<std::string>& problems);
  void lay_out_region(const NodeSetUpInputs& in);
  // Once the region's memory is known (`pinned_host`: in pinned host memory on a GPU backend):
  // which peers keep their lines, and the receives that therefore come through the buffer.
  void settle_lines(const NodeSetUpInputs& in, bool pinned_host);

  // Where the words of node peer `index` lie in this rank's region.
  static std::int64_t arrival_line(std::uint32_t index);
  static std::int64_t ghosts_free_line(std::uint32_t index);

  // Every peer of this rank's messages, and whether the node transport carries it.
  const std::set<int>& peers() const { return peers_; }
  bool by_node(int peer) const { return by_node_.at(peer); }
  // The node peers in order: their index is their place in the device half's peer array.
  const std::vector<int>& node_peers() const { return node_peers_; }
  const std::map<int, std::uint32_t>& peer_index() const { return peer_index_; }
  std::uint32_t index_of(int peer) const { return peer_index_.at(peer); }
  const std::set<int>& send_peers() const { return send_peers_; }  // node peers sent to

  std::int64_t region_bytes() const { return region_bytes_; }
  // Where receive r lands in the region; -1: not a node receive.
  std::int64_t data_offset(std::size_t r) const { return data_offset_[r]; }
  // [r]: receive r comes through the buffer even in an epoch placed directly.
  const std::vector<bool>& through_buffer() const { return through_buffer_; }
  bool takes_lines(int peer) const { return lines_from_.contains(peer); }

 private:
  std::set<int> peers_;
  std::map<int, bool> by_node_;  // peer -> carried by the node transport
  std::vector<int> node_peers_;
  std::map<int, std::uint32_t> peer_index_;
  std::set<int> send_peers_;
  std::int64_t region_bytes_ = 0;
  std::vector<std::int64_t> data_offset_;
  std::vector<bool> through_buffer_;
  std::set<int> lines_from_;  // the peers this rank takes in lines
};

}  // namespace haloflag::halo::detail
