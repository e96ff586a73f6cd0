#include "transports/nccl/nccl_exchange_transport.hpp"

#include "haloflag/halo/peer_spans.hpp"
#include "options/transport_rules.hpp"
#include "transports/nccl/nccl_host_transport.hpp"

namespace haloflag::halo::detail {
namespace {

class NcclExchangeTransport final : public ExchangeTransport {
 public:
  std::string_view name() const override { return "nccl"; }

  // NCCL moves one span per peer: the peer's messages lie together.
  void arrange(TransportSetUp& s, MessageLayouts& layouts) override {
    spans_ = arrange_by_peer(s.moved, layouts);
  }

  // Every peer over NCCL, and described so.
  void describe_peers(std::vector<PeerTransport>& peers) const override {
    peers.clear();
    for (const int peer : peers_of(spans_)) peers.push_back({peer, Transport::nccl, "NCCL"});
  }

  std::unique_ptr<HostTransport> host_half(TransportSetUp& s) override {
    return make_nccl_host_transport(s.comm, spans_, s.options.timeout, *s.resources,
                                    *s.timeline, s.runner->gpu_stream(kernels::Lane::pack));
  }

 private:
  PeerSpans spans_;
};

}  // namespace

std::unique_ptr<ExchangeTransport> make_nccl_transport(const TransportSetUp& set_up) {
  if (!all_over_nccl(set_up.options)) return nullptr;
  return std::make_unique<NcclExchangeTransport>();
}

}  // namespace haloflag::halo::detail
