#include "transports/node/node_host_transport.hpp"

namespace haloflag::halo::detail {

NodeHostTransport::NodeHostTransport(NodeTransport& node, ExchangeResources& resources,
                                     TimelineRecorder& timeline, const MessageNames& names,
                                     std::size_t send_count, std::size_t recv_count)
    : node_(node), resources_(resources), timeline_(timeline), names_(names) {
  for (std::size_t m = 0; m < send_count; ++m) {
    if (node.node_send(m)) sends_.push_back(m);
  }
  for (std::size_t r = 0; r < recv_count; ++r) {
    if (node.node_recv(r)) recvs_.push_back(r);
  }
}

bool NodeHostTransport::progress(std::uint64_t epoch) {
  kernels_signal_ = true;
  if (done_unseen_ && resources_.pieces_done->test(0, epoch)) {
    done_unseen_ = false;
    for (const std::size_t m : sends_) timeline_.send_ready_seen(m);
    for (const std::size_t r : recvs_) timeline_.unpack_done_seen(r);
  }
  return !done_unseen_;
}

bool NodeHostTransport::receivers_ready(std::uint64_t epoch) const {
  for (const std::size_t m : sends_) {
    if (!node_.receiver_unpacked(m, epoch - 1)) return false;
  }
  return true;
}

void NodeHostTransport::send_packed(std::uint64_t epoch) {
  for (const std::size_t m : sends_) {
    node_.announce_packed(m, epoch);
    timeline_.send_posted(m);
  }
}

bool NodeHostTransport::delivered(std::uint64_t epoch) {
  for (const std::size_t r : recvs_) {
    if (!node_.arrived(r, epoch)) return false;
  }
  return true;
}

void NodeHostTransport::unpacked(std::uint64_t epoch) {
  for (const std::size_t r : recvs_) node_.announce_unpacked(r, epoch);
}

std::string NodeHostTransport::pending(std::uint64_t epoch) const {
  std::string text;
  if (!kernels_signal_) {
    text = unfinished_sends(epoch) + unarrived_receives(epoch);
  } else if (done_unseen_) {
    // Which node messages are done only the GPUs know (their flags are in device memory):
    // name them all.
    text += "\n  pieces_done[0] = " + std::to_string(resources_.pieces_done->value(0)) +
            ", waiting for " + std::to_string(epoch) + ": not every node message is done";
    for (const std::size_t m : sends_) {
      text += "\n  " + names_.send(m) + ": node transport, not confirmed";
    }
    for (const std::size_t r : recvs_) {
      text += "\n  " + names_.recv(r) + ": node transport, not confirmed";
    }
  }
  return text + node_.pending(epoch);
}

std::string NodeHostTransport::unfinished_sends(std::uint64_t epoch) const {
  std::string text;
  for (const std::size_t m : sends_) {
    if (!node_.receiver_unpacked(m, epoch - 1)) {
      text += "\n  " + names_.send(m) + ": the receiver has not unpacked exchange " +
              std::to_string(epoch - 1) + " (node transport)";
    }
  }
  return text;
}

std::string NodeHostTransport::unarrived_receives(std::uint64_t epoch) const {
  std::string text;
  for (const std::size_t r : recvs_) {
    if (!node_.arrived(r, epoch)) {
      text += "\n  " + names_.recv(r) + ": not announced by the sender (node transport)";
    }
  }
  return text;
}

}  // namespace haloflag::halo::detail
