#include "haloflag/model/message_time.hpp"

#include <algorithm>
#include <string>

#include "haloflag/model/errors.hpp"

namespace haloflag::model {

double postal_time(const PostalParams& params, double bytes) {
  return params.alpha + params.beta * bytes;
}

double kmodel_beta(const KModelParams& params, double concurrency) {
  const double aggregate_rate = params.r_cb + (concurrency - 1.0) * params.r_ci;
  if (!(aggregate_rate > 0.0)) {
    throw ModelError("K-model: R_Cb + (N - 1) * R_Ci = " + std::to_string(aggregate_rate) +
                     " B/s is not > 0 for N = " + std::to_string(concurrency));
  }
  return 1.0 / aggregate_rate;
}

double kmodel_time(const KModelParams& params, double bytes, double concurrency) {
  return params.alpha + concurrency * bytes * kmodel_beta(params, concurrency);
}

double node_copy_time(const NodeTransportParams& params, double bytes) {
  return params.copy_latency + bytes / params.copy_bandwidth;
}

double node_transport_time(const NodeTransportParams& params, double bytes) {
  return node_copy_time(params, bytes) + params.flag_latency;
}

double ContentionCounts::concurrency() const noexcept {
  if (k_total <= 0) return 0.0;
  return static_cast<double>(k_inter) / static_cast<double>(k_total) * k_prime;
}

double ContentionCounts::effective_concurrency() const noexcept {
  return std::max(1.0, concurrency());
}

Protocol protocol_for(std::int64_t bytes, std::int64_t eager_threshold_bytes) noexcept {
  return bytes <= eager_threshold_bytes ? Protocol::eager : Protocol::rendezvous;
}

MessageTime message_time(const MachineParams& params, MessageClass message_class,
                         std::int64_t bytes, const ContentionCounts& counts) {
  MessageTime time;
  time.message_class = message_class;
  time.protocol = protocol_for(bytes, params.eager_threshold_bytes);
  const auto n = static_cast<double>(bytes);
  if (message_class == MessageClass::intra_socket) {
    const PostalParams& set = params.intra_socket.for_protocol(time.protocol);
    time.concurrency = 1.0;
    time.beta = set.beta;
    time.seconds = postal_time(set, n);
    return time;
  }
  const KModelParams& set = message_class == MessageClass::inter_socket
                                ? params.inter_socket.for_protocol(time.protocol)
                                : params.inter_node.for_protocol(time.protocol);
  time.concurrency = counts.effective_concurrency();
  time.beta = kmodel_beta(set, time.concurrency);
  time.seconds = kmodel_time(set, n, time.concurrency);
  return time;
}

MessageTime node_message_time(const NodeTransportParams& params, MessageClass message_class,
                              std::int64_t bytes) {
  if (message_class == MessageClass::inter_node) {
    throw ModelError("node transport: a message between two nodes cannot take it");
  }
  MessageTime time;
  time.message_class = message_class;
  time.path = MessagePath::node;
  time.concurrency = 1.0;
  time.beta = 1.0 / params.copy_bandwidth;
  time.seconds = node_transport_time(params, static_cast<double>(bytes));
  return time;
}

}  // namespace haloflag::model
