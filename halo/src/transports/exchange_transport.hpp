// Internal: one transport of an Exchange as its set-up, facade, errors and progress see it
// (docs/design.md, "Transports and strategies"). Each transport's folder makes one through the
// constructor function that transport_registry.cpp lists, and the set-up runs every transport's
// steps in the registry's order on every rank, so that each collective step runs everywhere
// alike. A transport puts its device route into the kernels' plan and hands the strategy its
// host half (host_transport.hpp); it owns what both point into until the kernels are gone.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "haloflag/halo/transport.hpp"
#include "haloflag/kernels/field_set.hpp"
#include "haloflag/notify/errors.hpp"
#include "peer_handshake.hpp"
#include "transports/host_transport.hpp"
#include "transports/transport_set_up.hpp"

namespace haloflag::halo::detail {

class ExchangeTransport {
 public:
  virtual ~ExchangeTransport() = default;
  virtual std::string_view name() const = 0;

  // The set-up's steps, in the order the set-up calls them.
  // 1. Before anything is sized; each step agreed through set_up.agree. A transport with
  //    steps here is made on every rank, so that they are collective.
  virtual void prepare(TransportSetUp&) {}
  // 2. Inside the set-up's own step: cut what moves (set_up.moved) before it is laid out...
  virtual void cut(TransportSetUp&) {}
  // ...and arrange where it lies once it is.
  virtual void arrange(TransportSetUp&, MessageLayouts&) {}
  // 3. What the handshake checks beside the messages: how this rank moves them with each peer.
  virtual void add_terms(HandshakeTerms&) const {}
  // 4. After the handshake: connect to the peers and put the device route into the plan. The
  //    set-up runs it as an agreed step of its own on every rank, also where a peer has no such
  //    transport, so it may be collective. carries_* hold from here on.
  virtual void connect(TransportSetUp&) {}
  virtual bool carries_send(std::size_t) const { return false; }
  virtual bool carries_recv(std::size_t) const { return false; }
  // 5. Once the kernel runner exists: how each peer's messages move (Exchange::peers(), in
  //    the registry's order, each transport adding to or amending the list), then the host half
  //    the strategy drives, or null when this rank has nothing on this transport.
  virtual void describe_peers(std::vector<PeerTransport>&) const {}
  virtual std::unique_ptr<HostTransport> host_half(TransportSetUp&) = 0;

  // During exchanges. Collective over the node: the FieldSet of `slot` is registered (no
  // kernel runs meanwhile).
  virtual void map_fields(std::uint32_t, const kernels::FieldSet&) {}
  // What a failed device wait on one of this transport's flags waited for (", waiting ...");
  // empty when the flag is not this transport's.
  virtual std::string explain_wait(const notify::WaitFailure&) const { return {}; }
  // The size of the pieces this transport cut messages into (0: none cut).
  virtual std::int64_t piece_bytes() const { return 0; }
};

// The transports of one Exchange, in the registry's order.
using ExchangeTransports = std::vector<std::unique_ptr<ExchangeTransport>>;

}  // namespace haloflag::halo::detail
