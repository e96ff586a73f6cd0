#include "haloflag/model/prediction_report.hpp"

#include <cstdio>
#include <ostream>
#include <set>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

namespace haloflag::model {

namespace {

using OrderedJson = nlohmann::ordered_json;

constexpr double kMicro = 1e-6;

std::string printf_string(const char* pattern, auto... values) {
  char text[256];
  std::snprintf(text, sizeof text, pattern, values...);
  return text;
}

std::string_view to_string(TableRange range) {
  switch (range) {
    case TableRange::inside: return "inside";
    case TableRange::below_clamped: return "below_clamped";
    case TableRange::above_extrapolated: return "above_extrapolated";
  }
  return "?";
}

// What carried a message: its MPI protocol, or "node".
std::string carrier(const MessageTime& time) {
  return std::string(time.path == MessagePath::node ? "node" : to_string(time.protocol));
}

std::string send_line(const MessagePrediction& m) {
  return printf_string("  %6d %5d %10lld  %-12s  %-10s  %6.3f  %11.4e  %11.3f", m.peer, m.tag,
                static_cast<long long>(m.bytes), std::string(to_string(m.time.message_class)).c_str(),
                carrier(m.time).c_str(), m.time.concurrency, m.time.beta, m.time.seconds / kMicro);
}

std::string bound_line(const RankPrediction& r) {
  const MessagePrediction* slowest =
      r.slowest_send >= 0 ? &r.sends[static_cast<std::size_t>(r.slowest_send)] : nullptr;
  std::string line;
  if (slowest != nullptr && slowest->time.path == MessagePath::node) {
    line = printf_string("SP %.3f us (the node copy packs) + T_comm %.3f us", r.sp.seconds / kMicro,
                         r.t_comm / kMicro);
  } else {
    line = printf_string("SP %.3f us (pack %lld B) + T_comm %.3f us", r.sp.seconds / kMicro,
                         static_cast<long long>(r.shortest_send_bytes), r.t_comm / kMicro);
  }
  if (slowest != nullptr) {
    line += printf_string(" (%lld B to rank %d, %s %s)", static_cast<long long>(slowest->bytes),
                   slowest->peer, std::string(to_string(slowest->time.message_class)).c_str(),
                   carrier(slowest->time).c_str());
  }
  line += printf_string(r.lup_path == MessagePath::node ? " + LUP %.3f us (node copy of %lld B)"
                                                        : " + LUP %.3f us (unpack %lld B)",
                        r.lup.seconds / kMicro, static_cast<long long>(r.longest_recv_bytes));
  line += printf_string(" = %.3f us", r.bound / kMicro);
  return line;
}

// Which terms timed the messages, in one line.
std::string transport_line(const ExchangePrediction& prediction, const MachineParams* params) {
  constexpr const char* kMpiTerms =
      "postal model within a socket, K-model across sockets and nodes";
  std::string line = "transport: " + std::string(to_string(prediction.transport));
  if (!prediction.node_transport_used) {
    if (prediction.transport != TransportChoice::mpi) {
      line += " -> mpi (the parameter file has no node_transport)";
    }
    return line + "; every message: " + kMpiTerms;
  }
  if (params == nullptr || !params->node_transport) return line + "; within a node: node transport";
  const NodeTransportParams& node = *params->node_transport;
  return line + printf_string("; within a node: copy %.3f us + n / %.4g B/s, flag %.3f us (unpack: "
                              "the same copy); between nodes: K-model",
                              node.copy_latency / kMicro, node.copy_bandwidth,
                              node.flag_latency / kMicro);
}

OrderedJson lookup_json(std::int64_t bytes, const TableLookup& lookup) {
  OrderedJson json;
  json["bytes"] = bytes;
  json["seconds"] = lookup.seconds;
  json["table_range"] = std::string(to_string(lookup.range));
  return json;
}

}  // namespace

void print_prediction(std::ostream& out, const ExchangePrediction& prediction,
                      const ReportContext& context, const ReportOptions& options) {
  const int detail_rank = options.detail_rank < 0 ? prediction.critical_rank : options.detail_rank;
  if (detail_rank >= static_cast<int>(prediction.ranks.size())) {
    throw std::out_of_range("rank " + std::to_string(detail_rank) + " is not in the config (" +
                            std::to_string(prediction.ranks.size()) + " ranks)");
  }
  std::set<int> nodes;
  for (const RankPrediction& r : prediction.ranks) nodes.insert(r.location.node);

  out << "config:  " << context.config_source << " (" << prediction.ranks.size() << " ranks)\n";
  if (context.params != nullptr) {
    out << "params:  " << context.params_source << " (" << context.params->provenance.machine
        << "; " << context.params->provenance.source << ")\n";
    out << "eager threshold: " << context.params->eager_threshold_bytes << " B (n <= threshold: eager)\n";
  }
  out << transport_line(prediction, context.params) << '\n';
  if (context.mapping != nullptr) {
    out << "mapping: " << context.mapping->describe() << " -> " << nodes.size() << " node(s) used\n";
  }

  const RankPrediction& detail = prediction.ranks[static_cast<std::size_t>(detail_rank)];
  out << "\nmessages sent by rank " << detail.rank
      << (detail.rank == prediction.critical_rank ? " (critical rank)" : "") << ": node "
      << detail.location.node << ", socket " << detail.location.socket << ", K_inter "
      << detail.counts.k_inter << ", K_total " << detail.counts.k_total << ", k' "
      << detail.counts.k_prime
      << printf_string(", (K_inter/K_total)*k' = %.4f (N used: %.4f)\n", detail.counts.concurrency(),
                detail.counts.effective_concurrency());
  out << "    peer   tag      bytes  class         protocol         N    beta[s/B]  T_comm[us]\n";
  for (const MessagePrediction& m : detail.sends) out << send_line(m) << '\n';
  out << "  rank " << detail.rank << ": " << bound_line(detail) << '\n';

  if (options.all_ranks) {
    out << "\n  rank  node socket K_inter K_total   k'    SP[us]  T_comm[us]    LUP[us]  bound[us]\n";
    for (const RankPrediction& r : prediction.ranks) {
      out << printf_string("  %4d  %4d %6d %7d %7d %4d %9.3f %11.3f %10.3f %10.3f\n", r.rank,
                    r.location.node, r.location.socket, r.counts.k_inter, r.counts.k_total,
                    r.counts.k_prime, r.sp.seconds / kMicro, r.t_comm / kMicro,
                    r.lup.seconds / kMicro, r.bound / kMicro);
    }
  }

  for (const std::string& note : prediction.notes) out << "note: " << note << '\n';
  const RankPrediction& critical = prediction.critical();
  out << "\ncritical rank " << critical.rank << ": " << bound_line(critical) << '\n';
  out << printf_string("total lower bound: %.3f us (rank %d)\n", prediction.bound / kMicro,
                prediction.critical_rank);
  if (!context.strategy_asked) return;
  if (const StrategyPrediction* predicted = context.strategy_prediction) {
    for (const std::string& note : predicted->notes) out << "note: " << note << '\n';
    out << printf_string("predicted for %s over %s, %d rank(s) per GPU: ",
                         std::string(halo::to_string(predicted->strategy)).c_str(),
                         predicted->node_transport_used ? "node" : "mpi", predicted->ranks_per_gpu)
        << describe_phases(*predicted) << " (rank " << predicted->critical_rank << ")\n";
  } else {
    out << "prediction: none: " << context.strategy_unavailable << '\n';
  }
}

std::string describe_phases(const StrategyPrediction& prediction) {
  std::string text = printf_string("%.1f us =", prediction.seconds / kMicro);
  for (std::size_t i = 0; i < prediction.phases.size(); ++i) {
    const PhaseTime& phase = prediction.phases[i];
    text += printf_string("%s %s %.1f", i == 0 ? "" : " +", phase.name.c_str(),
                          phase.seconds / kMicro);
    if (i == 0) text += prediction.fixed_measured ? " (measured)" : " (composed)";
  }
  return text;
}

std::string prediction_to_json(const ExchangePrediction& prediction, const ReportContext& context) {
  OrderedJson json;
  json["tool"] = "haloflag_model";
  json["model"] = "SP + max T_comm + LUP (Elis et al. 2024, Eq. 1-4)";
  json["config"] = context.config_source;
  json["rank_count"] = prediction.ranks.size();
  if (context.params != nullptr) {
    OrderedJson params;
    params["file"] = context.params_source;
    params["source"] = context.params->provenance.source;
    params["machine"] = context.params->provenance.machine;
    params["date"] = context.params->provenance.date;
    params["eager_threshold_bytes"] = context.params->eager_threshold_bytes;
    json["params"] = std::move(params);
  }
  if (context.mapping != nullptr) json["mapping"] = context.mapping->describe();
  OrderedJson transport;
  transport["asked"] = std::string(to_string(prediction.transport));
  transport["node_transport_used"] = prediction.node_transport_used;
  if (prediction.node_transport_used && context.params != nullptr &&
      context.params->node_transport) {
    const NodeTransportParams& node = *context.params->node_transport;
    transport["copy_latency_s"] = node.copy_latency;
    transport["copy_bandwidth_bytes_per_s"] = node.copy_bandwidth;
    transport["flag_latency_s"] = node.flag_latency;
  }
  json["transport"] = std::move(transport);

  const RankPrediction& critical = prediction.critical();
  OrderedJson total;
  total["lower_bound_s"] = prediction.bound;
  total["critical_rank"] = prediction.critical_rank;
  total["sp_s"] = critical.sp.seconds;
  total["t_comm_s"] = critical.t_comm;
  total["lup_s"] = critical.lup.seconds;
  json["total"] = std::move(total);
  json["notes"] = prediction.notes;

  OrderedJson ranks = OrderedJson::array();
  for (const RankPrediction& r : prediction.ranks) {
    OrderedJson rank;
    rank["rank"] = r.rank;
    rank["node"] = r.location.node;
    rank["socket"] = r.location.socket;
    rank["k_inter"] = r.counts.k_inter;
    rank["k_total"] = r.counts.k_total;
    rank["k_prime"] = r.counts.k_prime;
    rank["concurrency"] = r.counts.concurrency();
    rank["effective_concurrency"] = r.counts.effective_concurrency();
    rank["sp"] = lookup_json(r.shortest_send_bytes, r.sp);
    rank["t_comm_s"] = r.t_comm;
    rank["slowest_send"] = r.slowest_send;
    rank["lup"] = lookup_json(r.longest_recv_bytes, r.lup);
    rank["lup"]["path"] = std::string(to_string(r.lup_path));
    rank["bound_s"] = r.bound;
    OrderedJson sends = OrderedJson::array();
    for (const MessagePrediction& m : r.sends) {
      OrderedJson send;
      send["peer"] = m.peer;
      send["tag"] = m.tag;
      send["bytes"] = m.bytes;
      send["class"] = std::string(to_string(m.time.message_class));
      send["path"] = std::string(to_string(m.time.path));
      send["protocol"] = carrier(m.time);
      send["concurrency"] = m.time.concurrency;
      send["beta_s_per_byte"] = m.time.beta;
      send["t_comm_s"] = m.time.seconds;
      sends.push_back(std::move(send));
    }
    rank["sends"] = std::move(sends);
    ranks.push_back(std::move(rank));
  }
  json["ranks"] = std::move(ranks);
  if (context.strategy_asked) {
    if (const StrategyPrediction* predicted = context.strategy_prediction) {
      OrderedJson strategy;
      strategy["strategy"] = std::string(halo::to_string(predicted->strategy));
      strategy["transport"] = predicted->node_transport_used ? "node" : "mpi";
      strategy["ranks_per_gpu"] = predicted->ranks_per_gpu;
      strategy["predicted_s"] = predicted->seconds;
      strategy["critical_rank"] = predicted->critical_rank;
      strategy["fixed_s"] = predicted->fixed_seconds;
      strategy["fixed_measured"] = predicted->fixed_measured;
      OrderedJson phases = OrderedJson::array();
      for (const PhaseTime& phase : predicted->phases) {
        phases.push_back({{"name", phase.name}, {"seconds", phase.seconds}});
      }
      strategy["phases"] = std::move(phases);
      strategy["notes"] = predicted->notes;
      json["prediction"] = std::move(strategy);
    } else {
      json["prediction"] = nullptr;
      json["prediction_unavailable_reason"] = context.strategy_unavailable;
    }
  }
  return json.dump(2) + "\n";
}

}  // namespace haloflag::model
