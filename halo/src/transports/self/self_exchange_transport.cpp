#include "transports/self/self_exchange_transport.hpp"

#include <utility>

#include "options/transport_rules.hpp"
#include "transports/self/self_transport.hpp"

namespace haloflag::halo::detail {
namespace {

class SelfExchangeTransport final : public ExchangeTransport {
 public:
  std::string_view name() const override { return "self"; }

  // The plan must be complete before the kernel runner copies it.
  void connect(TransportSetUp& s) override {
    auto self = std::make_unique<SelfTransport>(s.rank, s.moved, s.options, *s.resources,
                                                *s.timeline, *s.names);
    if (!self->any()) return;
    s.resources->plan.routes.self = self->route_table();
    s.resources->add_to_piece_grid(self->pieces(), 0);
    self_ = self.get();
    made_ = std::move(self);
    names_ = s.names;
    recv_count_ = s.moved.recvs.size();
  }
  bool carries_send(std::size_t m) const override { return self_ != nullptr && self_->carries_send(m); }
  bool carries_recv(std::size_t r) const override { return self_ != nullptr && self_->carries_recv(r); }

  void describe_peers(std::vector<PeerTransport>& peers) const override {
    if (self_ != nullptr) peers.push_back(self_->description());
  }

  // The transport is its own host half.
  std::unique_ptr<HostTransport> host_half(TransportSetUp&) override { return std::move(made_); }

  std::string explain_wait(const notify::WaitFailure& failure) const override {
    if (failure.array_name != "self_placed" || names_ == nullptr ||
        failure.index >= recv_count_) {
      return {};
    }
    return ", waiting for the group that copies this rank's own send into the " +
           names_->recv(failure.index) + " (self transport)";
  }

 private:
  std::unique_ptr<SelfTransport> made_;  // until host_half() hands it on
  const SelfTransport* self_ = nullptr;  // alive as long as the Exchange's host halves
  const MessageNames* names_ = nullptr;
  std::size_t recv_count_ = 0;
};

}  // namespace

std::unique_ptr<ExchangeTransport> make_self_transport(const TransportSetUp& set_up) {
  if (all_over_nccl(set_up.options) || !self_transport_carries_self(set_up.options)) return nullptr;
  return std::make_unique<SelfExchangeTransport>();
}

}  // namespace haloflag::halo::detail
