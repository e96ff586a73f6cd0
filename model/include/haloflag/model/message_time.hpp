/// @file
/// Time of one message per the paper's §6.4: the postal model within a socket (Eq. 2) and the
/// K-model across sockets and nodes (Eq. 3-4), with the parameter set picked by protocol; and on
/// the node transport, the GPU's copy into the peer's memory plus its flag.
#pragma once

#include <cstdint>

#include "haloflag/model/link_params.hpp"
#include "haloflag/model/machine_params.hpp"
#include "haloflag/model/message_class.hpp"
#include "haloflag/model/transport.hpp"

namespace haloflag::model {

/// Eq. 2: alpha + beta * n.
double postal_time(const PostalParams& params, double bytes);

/// Eq. 4: 1 / (R_Cb + (N - 1) * R_Ci), N the concurrency (K_inter / K_total) * k'.
/// Throws ModelError when the denominator is not > 0 (possible only for N < 1).
double kmodel_beta(const KModelParams& params, double concurrency);

/// Eq. 3: alpha + N * n * beta(N).
double kmodel_time(const KModelParams& params, double bytes, double concurrency);

/// One kernel copy of n bytes between device buffers: copy_latency + n / copy_bandwidth.
double node_copy_time(const NodeTransportParams& params, double bytes);

/// A message on the node transport: its copy into the peer's memory (which is also its pack)
/// plus the flag that announces it, node_copy_time + flag_latency.
double node_transport_time(const NodeTransportParams& params, double bytes);

/// The counts behind the K-model's concurrency, for the rank that sends the message.
struct ContentionCounts {
  int k_inter = 0;  ///< messages the rank sends off its node
  int k_total = 0;  ///< messages the rank sends
  int k_prime = 0;  ///< ranks on the rank's node that send at least one message

  /// (K_inter / K_total) * k' as in the paper (0 when the rank sends nothing).
  double concurrency() const noexcept;
  /// The value used: at least 1. A message in flight is at least one flow, and below 1 Eq. 3
  /// would shrink its byte cost toward zero (all-on-node runs have K_inter = 0) and Eq. 4's
  /// denominator could turn negative. For the paper's runs (24/26 * 4 = 3.69) it changes nothing.
  double effective_concurrency() const noexcept;

  /// Equal in every field.
  bool operator==(const ContentionCounts&) const = default;
};

/// n <= threshold is eager.
Protocol protocol_for(std::int64_t bytes, std::int64_t eager_threshold_bytes) noexcept;

/// The predicted time of one message and the terms it came from.
struct MessageTime {
  /// where the two ranks sit relative to each other
  MessageClass message_class = MessageClass::intra_socket;
  MessagePath path = MessagePath::mpi;  ///< the path the message was timed on
  Protocol protocol = Protocol::eager;  ///< the MPI path's; no meaning on the node path
  double concurrency = 1.0;  ///< N used in Eq. 3-4 (1 where it does not apply: intra-socket, node)
  double beta = 0.0;         ///< s/B used: the postal beta, Eq. 4, or 1 / copy_bandwidth
  double seconds = 0.0;      ///< T_comm
};

/// The time of an n-byte message of the given class sent by a rank with the given counts.
MessageTime message_time(const MachineParams& params, MessageClass message_class,
                         std::int64_t bytes, const ContentionCounts& counts);

/// The time of an n-byte message of the given class (intra- or inter-socket: the sender's and
/// receiver's node are one) on the node transport. Throws ModelError for inter_node.
MessageTime node_message_time(const NodeTransportParams& params, MessageClass message_class,
                              std::int64_t bytes);

}  // namespace haloflag::model
