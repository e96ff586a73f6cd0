#include "transports/node/node_region_layout.hpp"

#include "haloflag/kernels/transports/node/node_lines.hpp"
#include "haloflag/notify/flag_line.hpp"
#include "transports/node/node_placement.hpp"

namespace haloflag::halo::detail {
namespace {

constexpr std::size_t kLine = notify::kFlagLineBytes;

std::string ranks_text(const std::vector<int>& ranks) {
  std::string text;
  for (int r : ranks) text += (text.empty() ? "" : ", ") + std::to_string(r);
  return text;
}

}  // namespace

void NodeRegionLayout::choose_peers(const NodeSetUpInputs& in, const NodeDiscovery& node,
                                    std::vector<std::string>& problems) {
  for (const Message& m : in.messages.sends) peers_.insert(m.peer);
  for (const Message& m : in.messages.recvs) peers_.insert(m.peer);
  for (int peer : peers_) {
    const bool on_node = node.on_node(peer);
    if (in.options.transport == Transport::node && !on_node) {
      problems.push_back("transport node: peer " + std::to_string(peer) +
                         " is not on this rank's node (ranks " + ranks_text(node.members()) +
                         "); use transport auto to reach it over MPI");
    }
    // A rank's messages to itself are the self transport's wherever this one could carry them.
    by_node_[peer] = on_node && in.options.transport != Transport::mpi && peer != node.rank();
  }
  for (int peer : peers_) {
    if (!by_node_[peer]) continue;
    peer_index_[peer] = static_cast<std::uint32_t>(node_peers_.size());
    node_peers_.push_back(peer);
  }
  for (const Message& m : in.messages.sends) {
    if (by_node_[m.peer]) send_peers_.insert(m.peer);
  }
}

// Two lines per node peer, then the node receives' data; the peers in lines are chosen here, and
// settled by settle_lines().
void NodeRegionLayout::lay_out_region(const NodeSetUpInputs& in) {
  const RankMessages& messages = in.messages;
  const AdvancedOptions& advanced = in.options.advanced;
  const auto peer_count = static_cast<std::int64_t>(node_peers_.size());
  region_bytes_ = aligned_for_data(2 * peer_count * static_cast<std::int64_t>(kLine));
  data_offset_.assign(messages.recvs.size(), -1);
  through_buffer_.assign(messages.recvs.size(), false);
  for (int peer : node_peers_) {
    std::vector<kernels::MessageLayout> receives;
    for (std::size_t r = 0; r < messages.recvs.size(); ++r) {
      if (messages.recvs[r].peer == peer) receives.push_back(in.layouts.recvs[r]);
    }
    if (peer_takes_lines(receives, in.options.strategy, advanced.node_lines_up_to_bytes)) {
      lines_from_.insert(peer);
    }
  }
  for (std::size_t r = 0; r < messages.recvs.size(); ++r) {
    const int peer = messages.recvs[r].peer;
    if (!by_node_[peer]) continue;
    const bool lines = lines_from_.contains(peer);
    through_buffer_[r] = receive_through_buffer(in.layouts.recvs[r], in.fields,
                                                advanced.node_placement,
                                                advanced.node_buffered_from_bytes);
    data_offset_[r] = region_bytes_;
    const std::int64_t bytes = messages.recvs[r].bytes;
    region_bytes_ =
        aligned_for_data(region_bytes_ + (lines ? kernels::line_buffer_bytes(bytes) : bytes));
  }
}

void NodeRegionLayout::settle_lines(const NodeSetUpInputs& in, bool pinned_host) {
  // Lines in pinned host memory would have every receiving thread read across the bus: those
  // peers take the counted route, placed by shape.
  if (pinned_host) lines_from_.clear();
  // Lines are never placed in the ghost cells: they are unpacked by the flags' readers.
  for (std::size_t r = 0; r < in.messages.recvs.size(); ++r) {
    if (data_offset_[r] >= 0 && lines_from_.contains(in.messages.recvs[r].peer)) {
      through_buffer_[r] = true;
    }
  }
}

std::int64_t NodeRegionLayout::arrival_line(std::uint32_t index) {
  return static_cast<std::int64_t>(2 * kLine * index);
}

std::int64_t NodeRegionLayout::ghosts_free_line(std::uint32_t index) {
  return static_cast<std::int64_t>(2 * kLine * index + kLine);
}

}  // namespace haloflag::halo::detail
