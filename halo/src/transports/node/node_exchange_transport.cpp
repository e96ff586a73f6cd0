#include "transports/node/node_exchange_transport.hpp"

#include <string>

#include "options/transport_rules.hpp"
#include "transports/node/node_host_transport.hpp"
#include "transports/node/node_transport.hpp"

namespace haloflag::halo::detail {
namespace {

class NodeExchangeTransport final : public ExchangeTransport {
 public:
  std::string_view name() const override { return "node"; }

  void prepare(TransportSetUp& s) override {
    s.agree("find the ranks of its node", [&] {
      NodeRanks found =
          ranks_on_node(s.comm, s.options.backend != notify::Backend::host, s.options.timeout);
      s.node_ranks = std::move(found.ranks);
      s.gpu_sharers = found.gpu_sharers;
    });
  }

  // Collective over the node: every rank reaches it, since set-up and handshake agreed.
  void connect(TransportSetUp& s) override {
    ExchangeResources& resources = *s.resources;
    node_ = std::make_unique<NodeTransport>(s.comm, s.moved, resources.layouts,
                                            resources.plan.fields, options_seen(s.options),
                                            resources.control, *s.names);
    node_->throw_if_unusable();
    s.gpu_sharers = node_->gpu_sharers();
    if (!node_->any()) return;
    resources.plan.routes.node = node_->route_table();
    resources.plan.routes.node_lines = node_->any_lines();
    resources.add_to_piece_grid(node_->send_pieces(), node_->recv_pieces());
  }
  bool carries_send(std::size_t m) const override { return node_->node_send(m); }
  bool carries_recv(std::size_t r) const override { return node_->node_recv(r); }

  // The node transport describes every peer, node or MPI (it sorted them), ahead of the rank
  // itself.
  void describe_peers(std::vector<PeerTransport>& peers) const override {
    peers.insert(peers.begin(), node_->peers().begin(), node_->peers().end());
  }

  std::unique_ptr<HostTransport> host_half(TransportSetUp& s) override {
    if (!node_->any()) return nullptr;
    return std::make_unique<NodeHostTransport>(*node_, *s.resources, *s.timeline, *s.names,
                                               s.moved.sends.size(), s.moved.recvs.size());
  }

  void map_fields(std::uint32_t slot, const kernels::FieldSet& fields) override {
    node_->map_fields(slot, fields);
  }

  std::string explain_wait(const notify::WaitFailure& failure) const override {
    if (failure.array_name == "node_arrival") {
      return ", waiting for every piece of node peer " +
             std::to_string(node_->peer_rank(failure.index)) +
             " (its GPU stores the word once they have all landed)";
    }
    if (failure.array_name == "node_ghosts_free" &&
        failure.outcome == notify::WaitOutcome::wrong_fields) {
      return "; the peer told early is node peer " +
             std::to_string(node_->peer_rank(failure.index));
    }
    if (failure.array_name == "node_ghosts_free") {
      return ", waiting before sending to node peer " +
             std::to_string(node_->peer_rank(failure.index)) +
             " for it to start the exchange (node transport flow control)";
    }
    return {};
  }

 private:
  // Under nccl no peer is the node transport's, but the node's ranks still check each pair.
  static ExchangeOptions options_seen(const ExchangeOptions& options) {
    ExchangeOptions seen = options;
    if (all_over_nccl(options)) seen.transport = Transport::mpi;
    return seen;
  }

  std::unique_ptr<NodeTransport> node_;
};

}  // namespace

std::unique_ptr<ExchangeTransport> make_node_transport(const TransportSetUp&) {
  return std::make_unique<NodeExchangeTransport>();
}

}  // namespace haloflag::halo::detail
