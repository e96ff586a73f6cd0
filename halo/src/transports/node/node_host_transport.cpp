#include "transports/node/node_host_transport.hpp"

#include <utility>

namespace haloflag::halo::detail {

NodeHostTransport::NodeHostTransport(NodeTransport& node, ExchangeResources& resources,
                                     TimelineRecorder& timeline, const MessageNames& names,
                                     std::size_t send_count, std::size_t recv_count)
    : node_(node), timeline_(timeline), names_(names), grid_(resources, timeline) {
  std::vector<std::size_t> sends;
  std::vector<std::size_t> recvs;
  for (std::size_t m = 0; m < send_count; ++m) {
    if (node.node_send(m)) sends.push_back(m);
  }
  for (std::size_t r = 0; r < recv_count; ++r) {
    if (node.node_recv(r)) recvs.push_back(r);
  }
  grid_.watch(std::move(sends), std::move(recvs));
}

bool NodeHostTransport::progress(std::uint64_t epoch) { return grid_.progress(epoch); }

bool NodeHostTransport::receivers_ready(std::uint64_t epoch) const {
  for (const std::size_t m : grid_.sends()) {
    if (!node_.receiver_unpacked(m, epoch - 1)) return false;
  }
  return true;
}

void NodeHostTransport::send_packed(std::uint64_t epoch) {
  for (const std::size_t m : grid_.sends()) {
    node_.announce_packed(m, epoch);
    timeline_.send_posted(m);
  }
}

bool NodeHostTransport::delivered(std::uint64_t epoch) {
  for (const std::size_t r : grid_.recvs()) {
    if (!node_.arrived(r, epoch)) return false;
  }
  return true;
}

void NodeHostTransport::unpacked(std::uint64_t epoch) {
  for (const std::size_t r : grid_.recvs()) node_.announce_unpacked(r, epoch);
}

std::string NodeHostTransport::pending(std::uint64_t epoch) const {
  std::string text;
  if (!grid_.watched()) {
    text = unfinished_sends(epoch) + unarrived_receives(epoch);
  } else if (grid_.waiting()) {
    // Which node messages are done only the GPUs know (their flags are in device memory):
    // name them all.
    text += "\n  pieces_done[0] = " + std::to_string(grid_.done_value()) +
            ", waiting for " + std::to_string(epoch) + ": not every node message is done";
    for (const std::size_t m : grid_.sends()) {
      text += "\n  " + names_.send(m) + ": node transport, not confirmed";
    }
    for (const std::size_t r : grid_.recvs()) {
      text += "\n  " + names_.recv(r) + ": node transport, not confirmed";
    }
  }
  return text + node_.pending(epoch);
}

std::string NodeHostTransport::unfinished_sends(std::uint64_t epoch) const {
  std::string text;
  for (const std::size_t m : grid_.sends()) {
    if (!node_.receiver_unpacked(m, epoch - 1)) {
      text += "\n  " + names_.send(m) + ": the receiver has not unpacked exchange " +
              std::to_string(epoch - 1) + " (node transport)";
    }
  }
  return text;
}

std::string NodeHostTransport::unarrived_receives(std::uint64_t epoch) const {
  std::string text;
  for (const std::size_t r : grid_.recvs()) {
    if (!node_.arrived(r, epoch)) {
      text += "\n  " + names_.recv(r) + ": not announced by the sender (node transport)";
    }
  }
  return text;
}

}  // namespace haloflag::halo::detail
