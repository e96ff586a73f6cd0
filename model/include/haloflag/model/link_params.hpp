/// @file
/// Parameter sets of one link class. Units are SI throughout: seconds, bytes, bytes per second.
#pragma once

#include "haloflag/model/message_class.hpp"

namespace haloflag::model {

/// Postal model (Eq. 2): T = alpha + beta * n.
struct PostalParams {
  double alpha = 0.0;  ///< s, one-time cost of a message
  double beta = 0.0;   ///< s/B, cost per byte

  /// Equal in every field.
  bool operator==(const PostalParams&) const = default;
};

/// K-model (Eq. 3-4): T = alpha + N * n * beta, beta = 1 / (R_Cb + (N - 1) * R_Ci),
/// with N = (K_inter / K_total) * k' concurrent off-node senders of the node.
struct KModelParams {
  double alpha = 0.0;  ///< s
  double r_cb = 0.0;   ///< B/s, R_Cb: bandwidth one process sustains alone
  double r_ci = 0.0;   ///< B/s, R_Ci: bandwidth each further concurrent process adds

  /// Equal in every field.
  bool operator==(const KModelParams&) const = default;
};

/// Node transport (docs/model.md, "Node transport"): the sender's kernel packs a message straight
/// into the receiver's device memory, then release-stores the receiver's arrival flag, so a message
/// of n bytes takes copy_latency + n / copy_bandwidth + flag_latency. No MPI, no protocols.
struct NodeTransportParams {
  double copy_latency = 0.0;    ///< s, fixed cost of one kernel copy of a message
  double copy_bandwidth = 0.0;  ///< B/s, device-to-device copy as one packing block does it
  double flag_latency = 0.0;    ///< s, release-store of a flag until the peer's poll sees it

  /// Equal in every field.
  bool operator==(const NodeTransportParams&) const = default;
};

/// One set per protocol. A class the paper gives a single set for holds it twice.
template <class Params>
struct ProtocolParams {
  Params eager;  ///< the set for eager messages
  Params rendezvous;  ///< the set for rendezvous messages

  /// The same set for both protocols.
  static ProtocolParams both(const Params& params) { return {params, params}; }
  /// The set for `protocol`.
  const Params& for_protocol(Protocol protocol) const {
    return protocol == Protocol::eager ? eager : rendezvous;
  }
  /// Whether both protocols have the same set.
  bool is_single_set() const { return eager == rendezvous; }

  /// Equal in every field.
  bool operator==(const ProtocolParams&) const = default;
};

}  // namespace haloflag::model
