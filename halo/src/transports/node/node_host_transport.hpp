// Internal: the host half of the node transport during exchanges. Its set-up and memory are
// NodeTransport's (node_transport.hpp). With the flag strategies the piece grid moves every node
// message from GPU to GPU and the CPU reads one flag, pieces_done, to see them all done. With the
// bulk strategies the CPUs tell each other through the node's shared memory (NodeTransport's
// mailbox, node_signals.hpp) when a message is packed into its receiver's buffer and when it is
// unpacked.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "exchange_resources.hpp"
#include "message_names.hpp"
#include "timeline_recorder.hpp"
#include "transports/host_transport.hpp"
#include "transports/piece_grid_watch.hpp"
#include "transports/node/node_transport.hpp"

namespace haloflag::halo::detail {

class NodeHostTransport final : public HostTransport {
 public:
  NodeHostTransport(NodeTransport& node, ExchangeResources& resources, TimelineRecorder& timeline,
                    const MessageNames& names, std::size_t send_count, std::size_t recv_count);

  std::string_view name() const override { return "node"; }
  DeviceWork device_work() const override { return DeviceWork::piece_grid; }
  bool carries_send(std::size_t m) const override { return node_.node_send(m); }
  bool carries_recv(std::size_t r) const override { return node_.node_recv(r); }

  void start(std::uint64_t) override { grid_.start(); }
  std::string pending(std::uint64_t epoch) const override;

  bool progress(std::uint64_t epoch) override;

  bool receivers_ready(std::uint64_t epoch) const override;
  void send_packed(std::uint64_t epoch) override;
  bool delivered(std::uint64_t epoch) override;
  void unpacked(std::uint64_t epoch) override;

 private:
  std::string unfinished_sends(std::uint64_t epoch) const;
  std::string unarrived_receives(std::uint64_t epoch) const;

  NodeTransport& node_;
  TimelineRecorder& timeline_;
  const MessageNames& names_;
  PieceGridWatch grid_;  // the node sends and receives, and pieces_done
};

}  // namespace haloflag::halo::detail
