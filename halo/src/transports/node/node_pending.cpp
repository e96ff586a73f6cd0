#include "transports/node/node_pending.hpp"

#include "haloflag/notify/flag_line.hpp"

namespace haloflag::halo::detail {

std::string node_pending(std::uint64_t epoch, const std::vector<int>& node_peers,
                         const NodeRoutes& routes, const NodeDevicePlan& plan,
                         const NodeMemorySharing& memory) {
  std::string text;
  const std::vector<std::int64_t>& peer_lines = routes.peer_lines();
  const std::vector<kernels::NodeSendRoute>& sends = routes.sends();
  const std::vector<kernels::NodeRecvRoute>& recvs = routes.recvs();
  for (std::size_t i = 0; i < node_peers.size() && i < peer_lines.size(); ++i) {
    const int peer = node_peers[i];
    const std::uint64_t arrival = memory.read_word(peer_lines[i]);
    const std::uint64_t free =
        memory.read_word(peer_lines[i] + static_cast<std::int64_t>(notify::kFlagLineBytes));
    const kernels::NodePeerRoute& route = plan.peers()[i];
    const auto out = std::uint64_t{route.pieces_out};
    if (route.pieces_in > 0 && route.lines_in != 0) {
      text += "\n  node_arrival[" + std::to_string(i) + "]: peer " + std::to_string(peer) +
              " sends in lines, whose flagged words its receiving threads wait for (a failure "
              "names the flag last seen):";
      for (std::size_t r = 0; r < recvs.size(); ++r) {
        if (recvs[r].peer == i) text += "\n    " + routes.recv_text(r);
      }
    } else if (route.pieces_in > 0 && arrival < kernels::arrival_target(route, epoch)) {
      text += "\n  node_arrival[" + std::to_string(i) + "] = " + std::to_string(arrival) +
              ", waiting for " + std::to_string(kernels::arrival_target(route, epoch)) +
              (route.counts_in != 0 ? " elements" : "") + ": peer " + std::to_string(peer) +
              "'s pieces of exchange " + std::to_string(epoch) + " have not all landed:";
      for (std::size_t r = 0; r < recvs.size(); ++r) {
        if (recvs[r].peer == i) text += "\n    " + routes.recv_text(r);
      }
    }
    if (out > 0 && !kernels::lines_free_from_start(route, epoch) &&
        (free >> kernels::kGhostsFreeSlotBits) < epoch) {
      text += "\n  node_ghosts_free[" + std::to_string(i) + "] = " +
              std::to_string(free >> kernels::kGhostsFreeSlotBits) + ", waiting for " +
              std::to_string(epoch) + ": peer " + std::to_string(peer) +
              (route.lines_out != 0 ? " has not unpacked exchange " + std::to_string(epoch - 2) +
                                          " from the same set of lines"
                                    : std::string(" has not started the exchange")) +
              ", so these are not sent:";
      for (std::size_t m = 0; m < sends.size(); ++m) {
        if (sends[m].peer == i) text += "\n    " + routes.send_text(m);
      }
    }
  }
  return text;
}

}  // namespace haloflag::halo::detail
